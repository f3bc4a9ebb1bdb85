// The Lua script the Redis store runs, one call per decision, so read-modify-write of a limiter
// state is atomic in Redis. It mirrors the pure algorithms in `algorithms/` operation for
// operation (same formulas, same tolerance) so both stores answer identically; a property test
// holds them to that. Text and argument layout only; no Redis client lives here.

/**
 * The limiter script. For the sliding log KEYS[1] is a list of admission instants (ascending, one
 * per unit); otherwise a hash with `at` (window start, or the instant the bucket is empty/full) and
 * `n` (count in the window). ARGV: 1 operation (`decide` | `peek` | `observe`), 2 model
 * (`sliding-log` | `fixed-window` | `bucket`), 3 limit or capacity, 4 window ms or ms per unit, 5 cost,
 * 6 remaining reported by a server (`''` when not observing), 7 now in ms (`''` = Redis `TIME`).
 * Keys expire on Redis's own clock: on `TIME` when the state stops mattering (its reset); on a
 * given clock, which may run slower than Redis's (a frozen or simulated one), after the longest any
 * state can matter (the window, or the time a full bucket takes to empty), so no state is lost
 * while the caller's time stands still.
 * Returns `{ allowed (0|1), used, remaining, retryAfterMs, resetMs }`, numbers as exact strings.
 * Leaky and token buckets are the same model here: "ms of backlog" is ms until empty (leaky) or
 * ms of refill missing (token); the used count is that divided by the ms per unit, rounded up.
 */
export const LIMITER_SCRIPT = `
if redis.replicate_commands then redis.replicate_commands() end
local op, model = ARGV[1], ARGV[2]
local limit, span = tonumber(ARGV[3]), tonumber(ARGV[4])
local cost, reported = tonumber(ARGV[5]), tonumber(ARGV[6])
local now = tonumber(ARGV[7])
local givenClock = now ~= nil
if now == nil then
  local time = redis.call('TIME')
  now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local EPSILON = 1e-9
local function exact(x) return string.format('%.17g', x) end
local function expire(reset, longest)
  local ttl = reset
  if givenClock then ttl = longest end
  redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(ttl)))
end
local allowed, retry, used, reset

if model == 'sliding-log' then
  -- A list of admission instants, ascending, one per unit; entries expire span ms after.
  local saved = redis.call('LRANGE', KEYS[1], 0, -1)
  local log = {}
  for i = 1, #saved do
    local t = tonumber(saved[i])
    if t + span > now then log[#log + 1] = t end
  end
  local changed = false
  if reported ~= nil then
    local reportedUse = math.min(limit, math.max(0, limit - reported))
    for _ = #log + 1, reportedUse do log[#log + 1] = now; changed = true end
    table.sort(log)
  end
  local excess = #log + cost - limit
  allowed = excess <= 0
  if allowed then retry = 0 else retry = log[excess] + span - now end
  if allowed and op == 'decide' then
    for _ = 1, cost do log[#log + 1] = now end
    table.sort(log)
    changed = true
  end
  used = math.min(#log, limit)
  if #log == 0 then reset = 0 else reset = math.max(0, log[#log] + span - now) end
  if changed then
    local values = {}
    for i = 1, #log do values[i] = exact(log[i]) end
    redis.call('DEL', KEYS[1])
    redis.call('RPUSH', KEYS[1], unpack(values))
    expire(reset, span)
  end
  local admitted = 0
  if allowed then admitted = 1 end
  return { admitted, exact(used), exact(limit - used), exact(retry), exact(reset) }
end

local saved = redis.call('HMGET', KEYS[1], 'at', 'n')
local at, count = tonumber(saved[1]), tonumber(saved[2])
local changed = false

if model == 'fixed-window' then
  local start = now - (now % span)
  if at ~= nil and at >= start then start = at else count = 0 end
  count = count or 0
  if reported ~= nil then
    local reportedUse = math.min(limit, math.max(0, limit - reported))
    if reportedUse > count then count = reportedUse; changed = true end
  end
  allowed = count + cost <= limit
  if allowed and op == 'decide' then count = count + cost; changed = true end
  if allowed then retry = 0 else retry = start + span - now end
  used = math.min(count, limit)
  reset = start + span - now
  at = start
else
  local backlog = 0
  if at ~= nil and at > now then backlog = at - now end
  if reported ~= nil then
    local reportedBacklog = math.min(limit, math.max(0, limit - reported)) * span
    if reportedBacklog > backlog then backlog = (now + reportedBacklog) - now; changed = true end
  end
  local overflow = backlog + cost * span - limit * span
  allowed = overflow <= EPSILON
  if allowed and op == 'decide' then backlog = backlog + cost * span; changed = true end
  if allowed then retry = 0 else retry = overflow end
  used = math.min(limit, math.ceil(backlog / span - EPSILON))
  reset = backlog
  at = now + backlog
  count = 0
end

if changed then
  redis.call('HSET', KEYS[1], 'at', exact(at), 'n', exact(count))
  if model == 'fixed-window' then expire(reset, span) else expire(reset, limit * span) end
end
local admitted = 0
if allowed then admitted = 1 end
return { admitted, exact(used), exact(limit - used), exact(retry), exact(reset) }
`;
