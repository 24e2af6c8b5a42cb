import sharp from 'sharp';

/** Side-view silhouettes, drawn on a 960 x 640 canvas. */
const SHAPES = {
  van: {
    body: 'M140,450 L140,262 Q140,200 204,196 L700,190 Q762,190 792,262 L842,330 Q862,352 862,392 L862,450 Q862,470 842,470 L160,470 Q140,470 140,450 Z',
    windows: [
      'M192,214 L330,214 L330,300 L192,300 Z',
      'M346,214 L486,214 L486,300 L346,300 Z',
      'M502,214 L640,214 L640,300 L502,300 Z',
      'M656,212 L738,212 L790,300 L656,300 Z',
    ],
    wheels: [290, 700],
    wheelY: 470,
    wheelR: 62,
    light: 'M832,352 L858,356 L858,384 L832,380 Z',
  },
  sedan: {
    body: 'M110,430 Q110,382 160,372 L300,356 Q362,270 462,256 L600,256 Q682,262 742,340 L842,362 Q882,372 882,412 L882,440 Q882,460 862,460 L130,460 Q110,460 110,430 Z',
    windows: [
      'M332,356 L402,286 Q432,272 520,272 L520,356 Z',
      'M536,272 L600,272 Q660,278 712,352 L536,356 Z',
    ],
    wheels: [262, 722],
    wheelY: 460,
    wheelR: 58,
    light: 'M846,376 L878,386 L878,404 L846,398 Z',
  },
  hatch: {
    body: 'M120,440 Q120,382 170,366 L290,346 Q352,252 442,236 L642,232 Q722,236 762,320 L832,346 Q862,356 862,396 L862,440 Q862,462 840,462 L142,462 Q120,462 120,440 Z',
    windows: [
      'M322,346 L386,266 Q412,252 500,250 L500,346 Z',
      'M516,250 L632,250 Q692,256 726,330 L516,346 Z',
    ],
    wheels: [266, 700],
    wheelY: 462,
    wheelR: 60,
    light: 'M836,362 L860,370 L860,392 L836,386 Z',
  },
} as const;

export type CarShape = keyof typeof SHAPES;

function carSvg(shape: CarShape, color: string, viewBox: string, background: string): string {
  const s = SHAPES[shape];
  const wheels = s.wheels
    .map(
      (x) =>
        `<circle cx="${x}" cy="${s.wheelY}" r="${s.wheelR}" fill="#111827"/>` +
        `<circle cx="${x}" cy="${s.wheelY}" r="${s.wheelR * 0.55}" fill="#cbd5e1"/>` +
        `<circle cx="${x}" cy="${s.wheelY}" r="${s.wheelR * 0.18}" fill="#64748b"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">
  <defs>
    <linearGradient id="paint" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#ffffff" stop-opacity="0.35"/>
      <stop offset="0.45" stop-color="#ffffff" stop-opacity="0"/>
      <stop offset="1" stop-color="#000000" stop-opacity="0.25"/>
    </linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#dbeafe"/><stop offset="1" stop-color="#64748b"/>
    </linearGradient>
  </defs>
  ${background}
  <ellipse cx="490" cy="${s.wheelY + 40}" rx="420" ry="26" fill="#0f172a" opacity="0.18"/>
  <path d="${s.body}" fill="${color}" stroke="#0f172a" stroke-opacity="0.35" stroke-width="3"/>
  <path d="${s.body}" fill="url(#paint)"/>
  ${s.windows.map((d) => `<path d="${d}" fill="url(#glass)" stroke="#0f172a" stroke-opacity="0.4" stroke-width="3"/>`).join('')}
  <path d="${s.light}" fill="#fde68a"/>
  ${wheels}
</svg>`;
}

function photoBackground(seed: number): string {
  const hue = (seed * 47) % 360;
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="hsl(${hue} 45% 92%)"/><stop offset="0.62" stop-color="hsl(${hue} 30% 84%)"/>
      <stop offset="0.62" stop-color="#cbd5e1"/><stop offset="1" stop-color="#94a3b8"/>
    </linearGradient></defs>
    <rect width="960" height="640" fill="url(#sky)"/>
    <rect y="560" width="960" height="6" fill="#f8fafc" opacity="0.7"/>`;
}

export interface RenderedImage {
  full: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
}

/** A listing photo: the car on a studio-like backdrop, as WebP in two sizes. */
export async function renderCarPhoto(
  shape: CarShape,
  color: string,
  seed: number,
): Promise<RenderedImage> {
  const svg = Buffer.from(carSvg(shape, color, '0 0 960 640', photoBackground(seed)));
  const base = sharp(svg, { density: 72 });
  const [full, thumb] = await Promise.all([
    base.clone().resize(960, 640).webp({ quality: 78 }).toBuffer(),
    base.clone().resize(480, 320).webp({ quality: 72 }).toBuffer(),
  ]);
  return { full, thumb, width: 960, height: 640 };
}

/** A category icon: the silhouette on a round tile, 192 px square. */
export async function renderCategoryIcon(shape: CarShape, color: string): Promise<Buffer> {
  const background = `<circle cx="490" cy="340" r="470" fill="${color}" opacity="0.14"/>`;
  const svg = Buffer.from(carSvg(shape, color, '20 -130 940 940', background));
  return sharp(svg, { density: 72 }).resize(192, 192).webp({ quality: 82 }).toBuffer();
}
