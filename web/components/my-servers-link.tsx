// The way back to My Servers that error, gate and empty screens offer, one look everywhere.
import { Server } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClass } from './ui/button';

/** A button-styled link to /servers; `primary` where it is the screen's main way forward. */
export function MyServersLink({ variant = 'outline' }: { variant?: 'primary' | 'outline' }) {
  return (
    <Link to="/servers" className={buttonClass(variant)}>
      <Server size={16} aria-hidden="true" /> My Servers
    </Link>
  );
}
