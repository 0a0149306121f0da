/**
 * One polite live region for screen changes. A hash router never changes Next's router tree, so
 * Next's own route announcer stays silent; it is also an always-present `role="alert"`, which would
 * make every `getByRole('alert')` ambiguous. We provide the node Next looks for (by `name`) before
 * Next creates its own, as a polite live region without a role, and announce screen titles into it.
 */
const TYPE = 'next-route-announcer';
const STYLE = 'position:absolute;border:0;height:1px;margin:-1px;padding:0;width:1px;clip:rect(0 0 0 0);overflow:hidden;white-space:nowrap';

let message: HTMLSpanElement | null = null;

function makePolite(node: HTMLElement): HTMLElement {
  node.removeAttribute('role');
  node.setAttribute('aria-live', 'polite');
  node.setAttribute('aria-atomic', 'true');
  return node;
}

/** Creates (or tames) the announcer. Call from a layout effect, before Next's passive effects. */
export function installAnnouncer(): void {
  if (typeof document === 'undefined' || message?.isConnected) return;
  let live: HTMLElement | null = null;
  const existing = document.getElementsByTagName(TYPE)[0] as HTMLElement | undefined;
  const first = existing?.shadowRoot?.firstElementChild;
  if (first instanceof HTMLElement) {
    live = makePolite(first);
  } else {
    const host = document.createElement(TYPE);
    host.setAttribute('name', TYPE);
    host.style.cssText = 'position:absolute';
    live = makePolite(document.createElement('div'));
    live.style.cssText = STYLE;
    host.attachShadow({ mode: 'open' }).appendChild(live);
    document.body.appendChild(host);
  }
  message = document.createElement('span');
  live.appendChild(message);
}

/** Reads a short text to screen-reader users (e.g. the title of the screen just opened). */
export function announce(text: string): void {
  installAnnouncer();
  if (message) message.textContent = text;
}
