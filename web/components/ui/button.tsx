import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

/** Visual weight of a button. */
export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'danger' | 'success';
/** Size of a button; 'icon' is a square icon-only button. */
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

/** The class list of a button, also used to style links that act as buttons. */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', extra?: string): string {
  return cn('btn', `btn-${variant}`, `btn-${size}`, extra);
}

/** Props of Button. */
export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A native button in the dashboard's style; type defaults to "button". */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button({ variant, size, className, type = 'button', ...props }, ref) {
  return <button ref={ref} type={type} className={buttonClass(variant, size, className)} {...props} />;
});
