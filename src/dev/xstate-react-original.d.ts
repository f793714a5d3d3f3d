// The real @xstate/react under another name, for the development-only wrapper (vite.config.ts).
declare module '@xstate-react-original' {
  export * from '@xstate/react';
}
