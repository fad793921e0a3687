import { createContext, useContext } from "react";
import { useNonce } from "./nonce";

/**
 * The app's stylesheet is written into the head of every page, not linked: a linked stylesheet
 * holds back the first paint until it has arrived (docs/decisions/037-styles-in-the-page.md). The
 * server provides its text (entry.server.tsx). The browser does not download it a second time: it
 * takes the text once from the page the server sent, for when React makes the head anew (the
 * root's error boundary replaces the whole document).
 */
const AppStylesContext = createContext<string | null>(null);
export const AppStylesProvider = AppStylesContext.Provider;

const STYLES_ID = "app-styles";
let stylesOfPage: string | undefined;

function stylesInPage(): string {
  if (typeof document === "undefined") return "";
  stylesOfPage ??= document.getElementById(STYLES_ID)?.textContent ?? "";
  return stylesOfPage;
}

export function AppStyles() {
  const nonce = useNonce();
  const styles = useContext(AppStylesContext) ?? stylesInPage();
  return <style id={STYLES_ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: styles }} />;
}
