import { Spinner } from './ui/spinner';

/** A full-screen centred spinner with a line of text, e.g. 'Loading dashboard...'. */
export function LoadingScreen({ text }: { text: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <Spinner size={36} />
      <p>{text}</p>
    </div>
  );
}
