// electron-builder loads hooks with require(): this one is TypeScript, loaded through tsx.
'use strict'
module.exports = require('tsx/cjs/api').require('./after-pack.ts', __filename)
