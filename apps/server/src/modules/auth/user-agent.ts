/**
 * The browser and system a User-Agent names, in words people know ("Firefox", "iPhone"), for the
 * list of signed-in devices. Order matters: Edge and Opera also say "Chrome", Chrome also says
 * "Safari". Null when the agent says nothing we know (a script, a missing header).
 */
const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bHeadlessChrome\//, 'Chrome'],
  [/\bChromium\//, 'Chromium'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

const first = (list: Array<[RegExp, string]>, agent: string) =>
  list.find(([pattern]) => pattern.test(agent))?.[1] ?? null;

export function describeUserAgent(agent: string | null | undefined): {
  browser: string | null;
  os: string | null;
} {
  if (!agent) return { browser: null, os: null };
  // Long agents are padded by tools; what matters is at the start.
  const text = agent.slice(0, 512);
  return { browser: first(BROWSERS, text), os: first(SYSTEMS, text) };
}
