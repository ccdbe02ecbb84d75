/**
 * Light, dark or the system's theme, chosen in the page header and remembered in this browser's
 * localStorage (no server write). The choice is data-theme on <html>; "system" removes it, so
 * app/styles.css follows prefers-color-scheme. THEME_SCRIPT applies a stored choice in <head>,
 * before the first paint, so a dark page never flashes light.
 */
import { useEffect, useState } from "react";

const KEY = "socrates-theme";
type Theme = "system" | "light" | "dark";

export const THEME_SCRIPT = `try{var t=localStorage.getItem("${KEY}");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

function apply(theme: Theme): void {
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    if (theme === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // Storage refused (private mode, quota): the choice still holds for this page.
  }
}

export function ThemeToggle() {
  // The server cannot know the stored choice; the first render says "system" and the effect corrects it.
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => {
    const stored = document.documentElement.dataset.theme;
    if (stored === "light" || stored === "dark") setTheme(stored);
  }, []);
  return (
    <label className="theme-toggle">
      <span className="visually-hidden">Theme</span>
      <select
        value={theme}
        data-testid="theme-toggle"
        onChange={(e) => {
          const next = e.target.value as Theme;
          setTheme(next);
          apply(next);
        }}
      >
        <option value="system">System theme</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
