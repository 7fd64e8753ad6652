// Number fields as spec section 5 parses them: a whole number or a decimal, 0 when the text is not one.

/** A whole number, or 0 when the text is not one. */
export function parseWhole(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : 0;
}

/** A decimal, or 0 when the text is not one. */
export function parseDecimal(text: string): number {
  const value = Number.parseFloat(text);
  return Number.isFinite(value) ? value : 0;
}
