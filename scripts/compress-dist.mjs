// Writes .br and .gz beside every compressible file of a build folder, so the server sends
// precompressed bytes instead of compressing on each request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'apps/web/dist');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
let files = 0;
let before = 0;
let after = 0;

function walk(current) {
  for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
    const full = path.join(current, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (COMPRESSIBLE.test(entry.name)) compress(full);
  }
}

function compress(file) {
  const input = fs.readFileSync(file);
  if (input.length < 512) return;
  const gzip = zlib.gzipSync(input, { level: 9 });
  const brotli = zlib.brotliCompressSync(input, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
    },
  });
  fs.writeFileSync(`${file}.gz`, gzip);
  fs.writeFileSync(`${file}.br`, brotli);
  files += 1;
  before += input.length;
  after += brotli.length;
}

walk(dir);
console.log(
  `compressed ${files} files: ${(before / 1024).toFixed(1)} KB -> ${(after / 1024).toFixed(1)} KB (brotli)`,
);
