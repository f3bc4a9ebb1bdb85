// The option machinery of `mall-api-mock` and `mall-api-mock proxy`: the one convention every
// mall-api command follows (an option table read from the arguments and the environment, `--help`,
// `--version`, unknown options named with a suggestion, exit 2 on a usage mistake), from
// `@mall-api/auth/command-line`. The mock's own option tables live beside its commands.
export {
  type CliOption,
  optionHelp,
  packageVersion,
  readOptions,
  runCommand,
  standardOptions,
  UsageError,
} from '@mall-api/auth/command-line';
