// polished, as Redoc's bundle sees it (the docs build routes Redoc's `polished` imports here):
// the colour functions Redoc's styles call accept a CSS custom property (`var(--redoc-…)`) as well
// as a colour, answering with the CSS `color-mix()` that does the same in the browser, so a colour
// follows the variable when the page's colour scheme changes. Real colours go to polished itself.
// Only what Redoc 2.5's styles call on theme colours is taught; everything else is polished's own.
import * as polished from 'polished';

export * from 'polished';

const isVariable = (color: string) => color.trimStart().startsWith('var(');
const percent = (fraction: number) => `${Math.round(fraction * 1000) / 10}%`;

/** `color` with its opacity lowered by `amount` (0–1). */
export const transparentize = (amount: number, color: string): string =>
  isVariable(color)
    ? `color-mix(in srgb, ${color} ${percent(1 - amount)}, transparent)`
    : polished.transparentize(amount, color);

/** `color` mixed towards black by `amount` (0–1). */
export const darken = (amount: number, color: string): string =>
  isVariable(color)
    ? `color-mix(in srgb, ${color}, black ${percent(amount)})`
    : polished.darken(amount, color);

/** `color` mixed towards white by `amount` (0–1). */
export const lighten = (amount: number, color: string): string =>
  isVariable(color)
    ? `color-mix(in srgb, ${color}, white ${percent(amount)})`
    : polished.lighten(amount, color);

/**
 * The luminance of `color`; a variable counts as light (Redoc then darkens it, which reads well
 * in both schemes).
 */
export const getLuminance = (color: string): number => (isVariable(color) ? 1 : polished.getLuminance(color));
