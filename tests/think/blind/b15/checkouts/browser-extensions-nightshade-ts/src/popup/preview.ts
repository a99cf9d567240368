import { applyTheme, type Theme } from '../content/theme';

export function previewTheme(select: HTMLSelectElement): void {
  select.addEventListener('change', () => applyTheme(select.value as Theme));
}
