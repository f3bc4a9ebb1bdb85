// The oldest Redis the shared state runs on, checked once when a replica connects: the stores use
// commands Redis 7 added (`PEXPIRE … GT` for the OAuth store's expiry, `GETDEL` for one-time codes),
// which an older server refuses only when one first runs; so a replica on an old Redis stops at
// start, naming the version found and the one required.

/** The oldest Redis major version the shared state needs. */
export const requiredRedisMajor = 7;

/** The server's version in an `INFO server` answer; undefined when it names none. */
export function redisVersionOf(info: string): string | undefined {
  return /^redis_version:([^\r\n]+)/m.exec(info)?.[1]?.trim();
}

/** Throws a clear error when `info` (an `INFO server` answer) is of a Redis older than required. */
export function checkRedisVersion(info: string): void {
  const found = redisVersionOf(info);
  const major = Number(found?.split('.')[0]);
  if (!(major >= requiredRedisMajor))
    throw new Error(
      `the shared state needs Redis ${requiredRedisMajor} or later (it uses PEXPIRE … GT and GETDEL); the server runs Redis ${found ?? 'of an unknown version'}`,
    );
}
