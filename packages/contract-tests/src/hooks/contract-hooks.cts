// The hook file Dredd loads. Dredd 14 loads hook files with proxyquire (a `require` with the
// `hooks` module stubbed in), so this entry is CommonJS; everything it runs is ESM, loaded with a
// dynamic import() before the first transaction (transaction-hooks.ts).
import type { ContractSettings } from '../settings.js';
import type { DreddTransaction } from './dredd-transaction.js';
import type { TransactionHooks } from './transaction-hooks.js';

type Done = (error?: unknown) => void;
interface DreddHooks {
  beforeAll(hook: (transactions: DreddTransaction[], done: Done) => void): void;
  beforeEach(hook: (transaction: DreddTransaction, done: Done) => void): void;
  afterEach(hook: (transaction: DreddTransaction, done: Done) => void): void;
}

const hooks = require('hooks') as DreddHooks;
let transactionHooks: TransactionHooks | undefined;
let failure: unknown;

hooks.beforeAll((_transactions, done) => {
  Promise.all([
    import('../settings.js') as Promise<{ readSettings: () => ContractSettings }>,
    import('./transaction-hooks.js') as Promise<typeof import('./transaction-hooks.js')>,
  ])
    .then(([{ readSettings }, { createTransactionHooks }]) => createTransactionHooks(readSettings()))
    .then(
      (created) => {
        transactionHooks = created;
        done();
      },
      (error: unknown) => {
        failure = error;
        done();
      },
    );
});

hooks.beforeEach((transaction, done) => {
  if (!transactionHooks) {
    transaction.fail = `the contract hooks did not start: ${String(failure)}`;
    done();
    return;
  }
  transactionHooks.beforeEach(transaction).then(() => done());
});

hooks.afterEach((transaction, done) => {
  transactionHooks?.afterEach(transaction);
  done();
});
