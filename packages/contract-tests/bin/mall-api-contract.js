#!/usr/bin/env node
// The `mall-api-contract` command. A committed file, so `npm ci` links it into node_modules/.bin
// before anything is built (npm skips bins whose target does not exist yet); it runs the built CLI.
import '../dist/cli.js';
