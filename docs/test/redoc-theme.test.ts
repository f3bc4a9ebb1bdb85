// The references' one Redoc theme for both colour schemes: what the schemes disagree on becomes a
// CSS custom property set per scheme, what they share stays a plain value; and Redoc's colour
// functions (polished, as the docs bundle routes it) turn a custom property into the CSS
// `color-mix()` that follows it, while real colours still get polished's own answer.
import { darken as polishedDarken, transparentize as polishedTransparentize } from 'polished';
import { describe, expect, it } from 'vitest';
import { schemeSwitchingTheme, schemeThemes } from '../build/redoc-theme.mjs';
import { darken, getLuminance, lighten, transparentize } from '../src/browser/polished-css-variables.js';

type Theme = { [key: string]: unknown };
const at = (theme: Theme, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node as Theme | undefined)?.[key], theme);

describe('schemeSwitchingTheme', () => {
  const { theme, css } = schemeSwitchingTheme();

  it('names a custom property for a colour the schemes disagree on, with each scheme’s value', () => {
    expect(at(theme, 'sidebar.backgroundColor')).toBe('var(--redoc-sidebar-backgroundColor)');
    expect(css).toMatch(/:root \{[^}]*--redoc-sidebar-backgroundColor: #fafafa;/);
    expect(css).toMatch(/:root\[data-theme="dark"\] \{[^}]*--redoc-sidebar-backgroundColor: #161b26;/);
  });

  it('resolves derived colours per scheme (Redoc’s own defaults), not once', () => {
    expect(at(theme, 'colors.primary.light')).toBe('var(--redoc-colors-primary-light)');
    const [light, dark] = css.split(':root[data-theme="dark"]');
    expect(light).toContain('--redoc-colors-primary-main: #0b5cad;');
    expect(dark).toContain('--redoc-colors-primary-main: #8cc4ff;');
    expect(light).not.toEqual(dark);
  });

  it('keeps what both schemes share as it is', () => {
    expect(at(theme, 'rightPanel.backgroundColor')).toBe('#263238');
    expect(at(theme, 'sidebar.width')).toBe('260px');
    expect(css).not.toContain('rightPanel');
  });

  it('follows a change of one scheme’s theme', () => {
    const changed = schemeSwitchingTheme({
      light: schemeThemes.light,
      dark: { ...schemeThemes.dark, rightPanel: { width: '45%', backgroundColor: '#000000' } },
    });
    expect(at(changed.theme, 'rightPanel.backgroundColor')).toBe('var(--redoc-rightPanel-backgroundColor)');
  });
});

describe('Redoc’s colour functions with custom properties', () => {
  const variable = 'var(--redoc-colors-text-primary)';

  it('answer a custom property with the color-mix() that does the same', () => {
    expect(transparentize(0.9, variable)).toBe(`color-mix(in srgb, ${variable} 10%, transparent)`);
    expect(darken(0.1, variable)).toBe(`color-mix(in srgb, ${variable}, black 10%)`);
    expect(lighten(0.2, variable)).toBe(`color-mix(in srgb, ${variable}, white 20%)`);
    expect(getLuminance(variable)).toBe(1);
  });

  it('leave real colours to polished', () => {
    expect(transparentize(0.9, '#333333')).toBe(polishedTransparentize(0.9, '#333333'));
    expect(darken(0.1, '#fafafa')).toBe(polishedDarken(0.1, '#fafafa'));
    expect(getLuminance('#ffffff')).toBe(1);
    expect(getLuminance('#000000')).toBe(0);
  });
});
