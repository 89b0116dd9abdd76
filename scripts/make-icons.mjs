// Renders every icon from resources/icon.svg with Chromium (playwright-core): the app icon at each size
// electron-builder needs (it converts icon.png to .icns and .ico itself), and the tray icons, one per
// LED colour, at 16 and 32 px with @2x variants. Run with `npm run icons`; commit the PNGs it writes.
import { mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'

const resources = join(dirname(fileURLToPath(import.meta.url)), '../resources')
const source = readFileSync(join(resources, 'icon.svg'), 'utf8')

const APP_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
/** The #led circle with its rim and a small margin. */
const TRAY_VIEWBOX = '322 322 380 380'
const TRAY_SIZES = [16, 32]
/** The console's LED colours. */
const LED_COLORS = { red: '#e03131', orange: '#f08c00', green: '#2fb344', gray: '#9aa0a6' }

function appSvg() {
  return source
}

function traySvg(color) {
  return source
    .replace(/viewBox="[^"]*"/, `viewBox="${TRAY_VIEWBOX}"`)
    .replace('<rect id="background"', '<rect id="background" display="none"')
    .replace('<path id="eye"', '<path id="eye" display="none"')
    .replace('fill="#2fb344"', `fill="${color}"`)
}

async function render(page, svg, size, file) {
  const sized = svg.replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`)
  await page.setViewportSize({ width: size, height: size })
  await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`)
  mkdirSync(dirname(file), { recursive: true })
  await page.locator('svg').screenshot({ path: file, omitBackground: true })
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' })
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  await render(page, appSvg(), 1024, join(resources, 'icon.png'))
  for (const size of APP_SIZES) await render(page, appSvg(), size, join(resources, 'icons', `${size}x${size}.png`))
  for (const [name, color] of Object.entries(LED_COLORS)) {
    for (const size of TRAY_SIZES) {
      await render(page, traySvg(color), size, join(resources, 'tray', `${name}-${size}.png`))
      await render(page, traySvg(color), size * 2, join(resources, 'tray', `${name}-${size}@2x.png`))
    }
  }
  console.log(`icons written to ${resources}`)
} finally {
  await browser.close()
}
