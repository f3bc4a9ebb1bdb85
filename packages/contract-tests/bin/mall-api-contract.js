#!/usr/bin/env node
// The `mall-api-contract` command. A committed file, so `npm ci` links it into node_modules/.bin
// before anything is built (npm skips bins whose target does not exist yet); it runs the built CLI:
// `mall-api-contract conformance …` the conformance runner, anything else the Dredd run.
if (process.argv[2] === 'conformance') await import('../dist/conformance/conformance-cli.js');
else await import('../dist/cli.js');
