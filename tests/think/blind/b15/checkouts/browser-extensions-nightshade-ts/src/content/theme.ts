export type Theme = 'dark' | 'dim' | 'off';

const STYLE_ID = 'nightshade-style';

export function applyTheme(theme: Theme): void {
  document.getElementById(STYLE_ID)?.remove();
  if (theme === 'off') return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = theme === 'dark'
    ? 'html { filter: invert(0.92) hue-rotate(180deg); } img, video { filter: invert(1) hue-rotate(180deg); }'
    : 'html { filter: brightness(0.8) contrast(0.95); }';
  document.documentElement.appendChild(style);
}
