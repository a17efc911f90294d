// Small pieces every screen uses: a refusal shown where it happened, a card, a relative time.
import type { ReactNode } from 'react';

export function Problem({ text }: { text: string | undefined }) {
  return text ? (
    <p className="problem" role="alert">
      {text}
    </p>
  ) : null;
}

export function Card({ title, children, className }: { title?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`card ${className ?? ''}`}>
      {title ? <h2>{title}</h2> : null}
      {children}
    </section>
  );
}

export function clock(time: number): string {
  return new Date(time).toLocaleTimeString();
}
