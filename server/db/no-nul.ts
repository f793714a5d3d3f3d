import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NUL = /\u0000/g;
const clean = (value: unknown) =>
  typeof value === 'string' && value.includes('\u0000') ? value.replace(NUL, '') : value;

class StripNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = clean(node.value);
    return value === node.value ? node : ValueNode.create(value);
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return node.values.some((v) => clean(v) !== v)
      ? PrimitiveValueListNode.create(node.values.map(clean))
      : node;
  }
}

/**
 * Removes NUL characters from every string a query sends. PostgreSQL's text cannot hold U+0000
 * (it refuses the whole statement, which became a 500 for a hostile form field) while SQLite
 * stores it; dropping it on both keeps the two alike, and no text of this product needs it.
 */
export class NoNulPlugin implements KyselyPlugin {
  private readonly transformer = new StripNul();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
