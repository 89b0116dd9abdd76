// The console's colours, chosen for WCAG 2.1 AA contrast (4.5:1 for text) in both colour schemes; the
// accessibility spec (e2e/readable.spec.ts) checks every screen. Mantine's defaults fall short: its
// teal buttons and links (2.55:1), grey secondary text (3.32:1 light, 4.03:1 dark) and the darkest shade of
// several colours, which is their text on a tinted background (badges, the active menu entry).
import { createTheme, DEFAULT_THEME, MultiSelect, Pill, Select, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core'

/** A palette whose darkest shade reads at 4.5:1 on its own lightest tints and on white. */
function withDarkestShade(name: keyof typeof DEFAULT_THEME.colors, darkest: string): MantineColorsTuple {
  const shades = [...DEFAULT_THEME.colors[name]]
  shades[9] = darkest
  return shades as unknown as MantineColorsTuple
}

export const theme = createTheme({
  primaryColor: 'teal',
  // Filled buttons and badges, and coloured text in the light scheme, in the darkest shade: white on it
  // and it on white reach 4.5:1 (shade 6, Mantine's default, is 2.55:1 for teal).
  primaryShade: { light: 9, dark: 9 },
  // Black text on a light filled colour (yellow), white on a dark one.
  autoContrast: true,
  defaultRadius: 'sm',
  // No sliding or fading for those whose system asks for less motion (WCAG 2.3.3); the e2e suite's
  // browser asks too, and spends no frames on transitions.
  respectReducedMotion: true,
  colors: {
    teal: withDarkestShade('teal', '#087a57'),
    red: withDarkestShade('red', '#c52929'),
    orange: withDarkestShade('orange', '#bb3e0d'),
    yellow: withDarkestShade('yellow', '#a85700'),
    green: withDarkestShade('green', '#267b37'),
    lime: withDarkestShade('lime', '#4b790b')
  },
  // Mantine hides a pill's × and a select's clear button from assistive technology (a keyboard uses
  // Backspace instead); a screen reader on a touch screen has only them, so they are shown and named.
  components: {
    Pill: Pill.extend({ defaultProps: { removeButtonProps: { 'aria-hidden': false, 'aria-label': 'Remove' } } }),
    Select: Select.extend({ defaultProps: { clearButtonProps: { 'aria-hidden': false, 'aria-label': 'Clear' } } }),
    MultiSelect: MultiSelect.extend({ defaultProps: { clearButtonProps: { 'aria-hidden': false, 'aria-label': 'Clear all' } } })
  }
})

/** Secondary ("dimmed") text at 4.5:1 on the body, cards, striped and hovered rows of each scheme. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#60676e' },
  dark: { '--mantine-color-dimmed': '#a6a6a6' }
})
