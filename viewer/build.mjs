// Bundles the viewer (src/main.js with three.js) into one self-contained HTML page.
//   node build.mjs [--out PATH] [--embed RECORDING.json]
// Default output: ../target/viewer/viewer.html. With --embed the recording is inside the
// page (it opens by itself, from a file:// URL too); without, the page asks for a file
// or loads ?src=URL.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = option('--out') ?? join(here, '..', 'target', 'viewer', 'viewer.html');
const embed = option('--embed');

const bundle = await build({
  entryPoints: [join(here, 'src', 'main.js')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  write: false,
  logLevel: 'warning',
});
const script = bundle.outputFiles[0].text.replaceAll('</script', '<\\/script');
let recording = '';
if (embed) {
  // "</" never ends the JSON script element when written as the JSON escape "<\/"
  const json = readFileSync(embed, 'utf8').replaceAll('</', '<\\/');
  recording = `<script id="recording" type="application/json">${json}</script>`;
}
const page = readFileSync(join(here, 'index.html'), 'utf8')
  .replace('<!--RECORDING-->', () => recording)
  .replace('/*BUNDLE*/', () => script);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, page);
console.log(`wrote ${out} (${(page.length / 1024).toFixed(0)} KiB)`);
