import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { config } from '../config';

/**
 * Every 'Start Free Trial', 'Demo', 'Book a Demo', 'Get Started', Register and hero button
 * is a plain link to the separate web application's Register page: a full page load.
 */
export function RegisterLink({
  children,
  ...rest
}: { children: ReactNode } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return (
    <a href={config.registerUrl} {...rest}>
      {children}
    </a>
  );
}
