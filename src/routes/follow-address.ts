import { useEffect, useLayoutEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * A list that lives in the address follows it: `follow` gets the address's query each time it
 * changes, and at every Back and Forward. The router commits an address in a transition, so a Back
 * that comes before the address the list just wrote is committed (the list writes ?page=2, Back
 * at once) changes nothing React sees; the history's own `popstate` is followed too. The lists
 * ignore an address that is the view they show, so the two never loop.
 */
export function useFollowAddress(follow: (params: URLSearchParams) => void) {
  const [params] = useSearchParams();
  const latest = useRef(follow);
  useLayoutEffect(() => {
    latest.current = follow;
  });
  const search = params.toString();
  useEffect(() => latest.current(new URLSearchParams(search)), [search]);
  useEffect(() => {
    const onHistory = () => latest.current(new URLSearchParams(window.location.search));
    window.addEventListener('popstate', onHistory);
    return () => window.removeEventListener('popstate', onHistory);
  }, []);
}
