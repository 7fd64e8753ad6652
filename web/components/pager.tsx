// "Page x of y" with the buttons either side, the same under every paged list. Hidden when there is
// one page.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './ui/button';

/** Props of Pager. */
export interface PagerProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** What the pages are of, for the navigation's name: "Leaderboard pages". */
  label: string;
  /** The buttons' words: Previous/Next, or Newer/Older for histories. */
  words?: readonly [previous: string, next: string];
  /** Next is held while the next page loads. */
  loading?: boolean;
}

/** The pager of a list. */
export function Pager({ page, pages, onPage, label, words = ['Previous', 'Next'], loading }: PagerProps) {
  if (pages <= 1) return null;
  return (
    <nav className="row row-between" aria-label={label}>
      <Button variant="outline" size="sm" onClick={() => onPage(Math.max(1, page - 1))} disabled={page <= 1}>
        <ChevronLeft size={14} aria-hidden="true" /> {words[0]}
      </Button>
      <span className="muted small" aria-live="polite">
        Page {page} of {pages}
      </span>
      <Button variant="outline" size="sm" onClick={() => onPage(Math.min(pages, page + 1))} disabled={page >= pages || loading}>
        {words[1]} <ChevronRight size={14} aria-hidden="true" />
      </Button>
    </nav>
  );
}
