/**
 * Focuses `element` as soon as it can take focus. With reduced motion every transition lasts
 * 0.01 ms (index.css), so a dialog's or a panel's change to visible reaches its contents one level
 * a frame, and until then they refuse focus. Tries again each frame (for a second at most) while
 * focus is still on the page or on `from` (what had it, or the dialog itself), never taking it
 * back from somewhere the person moved it meanwhile.
 */
export function focusWhenShown(
  element: HTMLElement,
  from: Element | null = null,
  framesLeft = 60,
): void {
  element.focus();
  const focused = document.activeElement;
  const waiting = focused === document.body || (from !== null && focused === from);
  if (waiting && element.isConnected && framesLeft > 0) {
    requestAnimationFrame(() => focusWhenShown(element, from, framesLeft - 1));
  }
}
