/** The frame of the pages reached before log-in: the brand above one card. */
import type { ReactNode } from "react";

export function AccountCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="login">
      <div className="card login-card">
        <p className="brand" aria-hidden="true">
          <span className="brand-mark">C</span> Countersign
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
