/**
 * Focuses `element` as soon as it can take focus. With reduced motion every transition lasts
 * 0.01 ms (index.css), so a dialog's or a panel's change to visible reaches its contents one level
 * a frame, and until then they refuse focus. Tries again each frame (for a second at most) while
 * focus is still on the page or on one of `from` (what had it, the dialog itself, the title it
 * started at), never taking it back from somewhere the person moved it meanwhile. Answers a
 * function that stops trying.
 */
export function focusWhenShown(
  element: HTMLElement,
  from: Element | null | readonly (Element | null)[] = [],
): () => void {
  const waitingOn = Array.isArray(from) ? from : [from];
  let frame = 0;
  let stopped = false;
  const attempt = (framesLeft: number) => {
    if (stopped) return;
    element.focus();
    const focused = document.activeElement;
    const waiting = focused === document.body || waitingOn.includes(focused);
    if (waiting && element.isConnected && framesLeft > 0) {
      frame = requestAnimationFrame(() => attempt(framesLeft - 1));
    }
  };
  attempt(60);
  return () => {
    stopped = true;
    cancelAnimationFrame(frame);
  };
}
