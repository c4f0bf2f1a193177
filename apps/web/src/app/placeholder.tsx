import { Link } from 'react-router';

/** A screen that is registered but not built yet; it names itself. */
export function Placeholder({ name }: { name: string }) {
  return (
    <main className="mx-auto max-w-3xl p-8">
      <h1 className="text-2xl font-semibold">{name}</h1>
      <p className="mt-2 text-slate-600">This screen is not available yet.</p>
      <Link className="mt-4 inline-block text-brand-700 underline" to="/">
        Return Home
      </Link>
    </main>
  );
}
