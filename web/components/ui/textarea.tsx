import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';

/** A multi-line text input in the dashboard's style. */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea({ className, ...props }, ref) {
  return <textarea ref={ref} className={cn('input textarea', className)} {...props} />;
});
