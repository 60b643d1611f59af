/**
 * The server-side half of the Redis store: one Lua script that trims, counts, admits and answers in a single
 * atomic step, so one acquire is one round trip and concurrent callers can never both take the last permit.
 *
 * It keeps the in-process store's window (see ../sliding-window.ts) in one string value: a 16-byte header
 * (admissions in the window, start of the newest segment) and then one 16-byte record per segment (latest
 * admission time, admissions), oldest first, all big-endian doubles of integer microseconds. A segment frees
 * all its permits one window after its latest admission, so a permit is never freed early. With segment
 * width 0 a segment holds the admissions of one instant and the window is exact; with a width, admissions
 * closer than it to the newest segment's start join that segment, so a permit may come back up to one width
 * late and the record count stays bounded whatever the limit.
 *
 * One GET, and one SET with its expiry when admitting: a refusal writes nothing.
 *
 * KEYS[1] the counter's key. ARGV: permitLimit, windowMicros, segmentMicros (0 = exact), maxRecords,
 * nowMicros ('' = ask the server's TIME, so application clocks never matter).
 * Reply: { allowed 0|1, remaining, resetSeconds, retryAfterSeconds }.
 */
import { createHash } from 'node:crypto';

export const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local segment = tonumber(ARGV[3])
local maxRecords = tonumber(ARGV[4])
local now
if ARGV[5] ~= '' then
  now = tonumber(ARGV[5])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
-- Seconds, rounded up, at least 1 (every wait computed below is positive).
local function secs(us)
  local s = math.ceil(us / 1000000)
  if s < 1 then return 1 end
  return s
end

local value = redis.call('GET', key)
local used, newestStart, first, last = 0, 0, 0, -1
local frontLatest
if value then
  used, newestStart = struct.unpack('>dd', value)
  last = (#value - 16) / 16 - 1
  while first <= last do
    local latest, count = struct.unpack('>dd', value, 17 + first * 16)
    if latest + window > now then
      frontLatest = latest
      break
    end
    used = used - count
    first = first + 1
  end
end
local live = last - first + 1

if used < limit then
  local header
  local newest = now
  if live > 0 then
    local backLatest, backCount = struct.unpack('>dd', value, 17 + last * 16)
    if backLatest == now or now - newestStart < segment or live >= maxRecords then
      if backLatest > newest then newest = backLatest end
      if live == 1 then frontLatest = newest end
      header = struct.pack('>dd', used + 1, newestStart)
      value = header .. string.sub(value, 17 + first * 16, 16 + last * 16) .. struct.pack('>dd', newest, backCount + 1)
    else
      header = struct.pack('>dd', used + 1, now)
      value = header .. string.sub(value, 17 + first * 16) .. struct.pack('>dd', now, 1)
    end
  else
    frontLatest = now
    value = struct.pack('>dddd', used + 1, now, now, 1)
  end
  redis.call('SET', key, value, 'PX', math.ceil((newest + window - now) / 1000) + 1)
  return { 1, limit - used - 1, secs(frontLatest + window - now), 0 }
end

local blocker = frontLatest
if used > limit then
  -- Fewer permits than admissions (the limit was lowered): wait until enough segments have left.
  local freed = 0
  for i = first, last do
    local latest, count = struct.unpack('>dd', value, 17 + i * 16)
    freed = freed + count
    blocker = latest
    if used - freed < limit then break end
  end
end
return { 0, 0, secs(frontLatest + window - now), secs(blocker + window - now) }
`;

/** SHA-1 of the script, as Redis names it for EVALSHA. */
export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
