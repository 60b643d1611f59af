/**
 * The server-side half of the Redis store: one Lua script that trims, counts, admits and answers in a single
 * atomic step, so one acquire is one round trip and concurrent callers can never both take the last permit.
 *
 * It keeps the in-process store's window (see ../sliding-window.ts) in one string value: 16-byte records
 * (latest admission time, admissions) oldest first, then a 48-byte header (admissions in the window, start
 * of the newest segment, latest time of the front record, index of the front record, record count, expiry
 * deadline), all big-endian doubles of integer microseconds or counts. A segment frees all its permits one
 * window after its latest admission, so a permit is never freed early. With segment width 0 a segment holds
 * the admissions of one instant and the window is exact; with a width, admissions closer than it to the
 * newest segment's start join that segment, so a permit may come back up to one width late and the record
 * count stays bounded whatever the limit.
 *
 * Why this shape: Redis's Lua hashes every string a script creates byte by byte (so Redis CPU time grows
 * with the bytes handed to Lua), and so the script never pulls the whole value into Lua on the common paths. It reads the last 64 bytes (the newest record and the header)
 * with GETRANGE and writes the changed newest record and header back with one SETRANGE, which appends when a
 * new record starts. Records that left the window stay in front of the front index until there are at least
 * 8 of them and a quarter of the live ones; the next admission then rewrites the value without them.
 *
 * The key's expiry is moved only when the newest admission would outlive it, and then to one window and an
 * eighth past that admission, so most admissions keep the expiry as it is (setting it is the dearest part of
 * a write). A refusal writes nothing.
 *
 * KEYS[1] the counter's key. ARGV: permitLimit, windowMicros, segments per window (0 = exact: one record
 * per admission instant, at most permitLimit of them; otherwise at most segments + 2 records), and
 * optionally nowMicros (without it the script asks the server's TIME, so application clocks never matter).
 * All decimal strings: a binary argument would cost the client more than parsing three short numbers
 * costs Redis. Offsets go to Redis as strings made with string.format('%d'), which is cheaper than letting
 * Redis print a Lua number.
 *
 * Reply: one integer (see decodeReply), or { allowed 0|1, remaining, resetSeconds, retryAfterSeconds } when a
 * number is too large for that.
 */
import { createHash } from 'node:crypto';

export const OLD_SCRIPT = `
local limit, window, segments = ARGV[1] + 0, ARGV[2] + 0, ARGV[3] + 0
local segment, maxRecords = 0, limit
if segments > 0 then segment, maxRecords = window / segments, segments + 2 end
local now = ARGV[4]
if now then
  now = tonumber(now)
else
  local t = redis.call('TIME')
  now = t[1] * 1000000 + t[2]
end
local key = KEYS[1]
local fmt, pack, unpack, ceil = string.format, struct.pack, struct.unpack, math.ceil
local SPLIT = 67108864

local tail = redis.call('GETRANGE', key, '-64', '-1')
if #tail ~= 64 then
  -- No counter yet (or a value this script did not write): start one.
  local deadline = now + window + window / 8
  redis.call('SET', key, pack('>dddddddd', now, 1, 1, now, now, 0, 1, deadline), 'PX', fmt('%d', ceil((deadline - now) / 1000) + 1))
  local reset = ceil(window / 1000000)
  if reset < 1 then reset = 1 end
  if limit <= 2 * SPLIT and reset < SPLIT then return (limit - 1) * SPLIT + reset end
  return { 1, limit - 1, reset, 0 }
end
local backLatest, backCount, used, newestStart, frontLatest, first, count, deadline = unpack('>dddddddd', tail)

if frontLatest + window <= now then
  -- The front record left the window: read records from the front, 8 first, the rest if those all left.
  local base, stop = first, count
  if stop - first > 8 then stop = first + 8 end
  local records = redis.call('GETRANGE', key, fmt('%d', first * 16), fmt('%d', stop * 16 - 1))
  while true do
    local latest, admissions = unpack('>dd', records, 1 + (first - base) * 16)
    if latest + window > now then
      frontLatest = latest
      break
    end
    used = used - admissions
    first = first + 1
    if first == count then break end
    if first == stop then
      base, stop = first, count
      records = redis.call('GETRANGE', key, fmt('%d', first * 16), fmt('%d', count * 16 - 1))
    end
  end
end
local live = count - first
local reset

if used < limit then
  used = used + 1
  local join = live > 0 and (backLatest == now or now - newestStart < segment or live >= maxRecords)
  if join then
    if now > backLatest then backLatest = now end
    backCount = backCount + 1
    if live == 1 then frontLatest = backLatest end
  else
    backLatest, backCount, newestStart = now, 1, now
    if live == 0 then frontLatest = now end
  end
  local ttl
  if backLatest + window > deadline then
    deadline = backLatest + window + window / 8
    ttl = fmt('%d', ceil((deadline - now) / 1000) + 1)
  end
  local at = join and count - 1 or count
  if live == 0 or (first >= 8 and first * 4 >= live) then
    -- Rewrite without the records that left the window.
    local kept = ''
    if at > first then kept = redis.call('GETRANGE', key, fmt('%d', first * 16), fmt('%d', at * 16 - 1)) end
    local value = kept .. pack('>dddddddd', backLatest, backCount, used, newestStart, frontLatest, 0, at - first + 1, deadline)
    redis.call('SET', key, value, 'PX', ttl or fmt('%d', ceil((deadline - now) / 1000) + 1))
  else
    redis.call('SETRANGE', key, fmt('%d', at * 16), pack('>dddddddd', backLatest, backCount, used, newestStart, frontLatest, first, at + 1, deadline))
    if ttl then redis.call('PEXPIRE', key, ttl) end
  end
  reset = ceil((frontLatest + window - now) / 1000000)
  if reset < 1 then reset = 1 end
  local remaining = limit - used
  if remaining < 2 * SPLIT and reset < SPLIT then return remaining * SPLIT + reset end
  return { 1, remaining, reset, 0 }
end

reset = ceil((frontLatest + window - now) / 1000000)
if reset < 1 then reset = 1 end
local wait = reset
if used > limit then
  -- Fewer permits than admissions (the limit was lowered): wait until enough segments have left.
  local records = redis.call('GETRANGE', key, fmt('%d', first * 16), fmt('%d', count * 16 - 1))
  local blocker, freed = frontLatest, 0
  for i = 0, live - 1 do
    local latest, admissions = unpack('>dd', records, 1 + i * 16)
    freed = freed + admissions
    blocker = latest
    if used - freed < limit then break end
  end
  wait = ceil((blocker + window - now) / 1000000)
  if wait < 1 then wait = 1 end
end
if reset < 2 * SPLIT and wait < SPLIT then return -1 - (reset * SPLIT + wait) end
return { 0, 0, reset, wait }
`;

/** SHA-1 of the script, as Redis names it for EVALSHA. */
export const OLD_SHA = createHash('sha1').update(OLD_SCRIPT).digest('hex');
