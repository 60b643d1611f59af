/**
 * The server-side half of the Redis store: one Lua script that trims, counts, admits and answers in a single
 * atomic step, so one acquire is one round trip and concurrent callers can never both take the last permit.
 *
 * Time is in integer microseconds. Two layouts, chosen by the caller through ARGV[3]:
 * - exact (ARGV[3] = 0): a list of admission times, newest first; a permit comes back exactly `window` after
 *   it was taken. Used while the limit is small, so the list stays small. Should the server clock step back,
 *   an entry is only ever dropped when its own time has left the window, so the count errs high, never low.
 * - segmented (ARGV[3] = segment width): a hash of per-segment counts plus `n` (total), `t` (oldest segment)
 *   and `h` (newest segment). A segment's permits come back when its *last* possible instant leaves the
 *   window, so permits may return up to one segment late and never early; memory stays bounded by the number
 *   of segments whatever the limit.
 *
 * KEYS[1] the counter's key. ARGV: permitLimit, windowMicros, segmentMicros (0 = exact), nowMicros ('' = ask
 * the server's TIME, so client clocks never matter).
 * Reply: { allowed 0|1, remaining, resetSeconds, retryAfterSeconds }.
 */
import { createHash } from 'node:crypto';

export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local segment = tonumber(ARGV[3])
local now
if ARGV[4] ~= '' then
  now = tonumber(ARGV[4])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function str(x) return string.format('%.0f', x) end
local function secs(us)
  local s = math.ceil(us / 1000000)
  if s < 1 then s = 1 end
  return s
end

if segment == 0 then
  local count = redis.call('LLEN', key)
  local oldest
  while count > 0 do
    oldest = tonumber(redis.call('LINDEX', key, -1))
    if oldest + window > now then break end
    redis.call('RPOP', key)
    count = count - 1
    oldest = nil
  end
  if count < limit then
    redis.call('LPUSH', key, str(now))
    redis.call('PEXPIRE', key, math.ceil(window / 1000) + 1)
    return { 1, limit - count - 1, secs((oldest or now) + window - now), 0 }
  end
  local blocker = oldest
  if count > limit then blocker = tonumber(redis.call('LINDEX', key, limit - count - 1)) end
  return { 0, 0, secs(oldest + window - now), secs(blocker + window - now) }
end

local state = redis.call('HMGET', key, 'n', 't', 'h')
local n = tonumber(state[1]) or 0
local tail = tonumber(state[2])
local head = tonumber(state[3])
local oldTail = tail
local function expiry(s) return (s + 1) * segment - 1 + window end
if tail then
  while tail <= head do
    local field = str(tail)
    local c = redis.call('HGET', key, field)
    if c then
      if expiry(tail) > now then break end
      n = n - tonumber(c)
      redis.call('HDEL', key, field)
    end
    tail = tail + 1
  end
  if tail > head then
    redis.call('DEL', key)
    n = 0
    tail = nil
    head = nil
  elseif tail ~= oldTail then
    redis.call('HSET', key, 'n', n, 't', str(tail))
  end
end
if n < limit then
  local s = math.floor(now / segment)
  if head and head > s then s = head end
  redis.call('HINCRBY', key, str(s), 1)
  redis.call('HINCRBY', key, 'n', 1)
  n = n + 1
  if not tail then tail = s end
  if s ~= head then
    -- A new newest segment: it decides when the whole key may expire.
    redis.call('HSET', key, 't', str(tail), 'h', str(s))
    redis.call('PEXPIRE', key, math.ceil((expiry(s) - now) / 1000) + 1)
  end
  return { 1, limit - n, secs(expiry(tail) - now), 0 }
end
local freed = 0
local s = tail
while s <= head do
  local c = redis.call('HGET', key, str(s))
  if c then
    freed = freed + tonumber(c)
    if n - freed < limit then break end
  end
  s = s + 1
end
return { 0, 0, secs(expiry(tail) - now), secs(expiry(s) - now) }
`;

/** SHA-1 of the script, as Redis names it for EVALSHA. */
export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
