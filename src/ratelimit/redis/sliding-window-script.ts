/**
 * The server-side half of the Redis store: one Lua script that trims, counts, admits and answers in a single
 * atomic step, so one acquire is one round trip and concurrent callers can never both take the last permit.
 *
 * It keeps the in-process store's window (see ../sliding-window.ts) in one compact string (layout 3, see
 * ../../../docs/rate-limiting.md#key-layout): a header, then a ring of fixed-width records. An exact counter
 * keeps one record per admission, holding only its time; a segmented counter keeps one record per segment,
 * its latest admission time and its admissions. Times are whole microseconds (milliseconds for segmented
 * windows longer than 71 minutes, rounded up, so a permit is never freed early) and a record holds only the
 * low bytes of a time: as many as the window needs, because every record is younger than one window when it
 * is written, and the header keeps the newest time in full to restore the rest. The ring is sized to the
 * records it holds (grown in steps, up to the limit or the segments), and is written in place, so Redis
 * never doubles the string as it grows.
 *
 * The newest record lives in the header only (its ring slot is written when a newer record starts), so an
 * admission is GETRANGE of the header, at most one SETRANGE of a record, and one SETRANGE of the header; a
 * segmented admission that joins the newest segment writes the header alone. A refusal writes nothing.
 * Records are read from the front only when the oldest has left the window (8 at a time). Everything else
 * (a new counter, a ring that must grow, a policy whose limit or window changed the layout, a value this
 * script did not write, a counter of the previous layout under KEYS[2]) goes through one slow path that
 * reads the whole value and writes it again with SET.
 *
 * The key's expiry lies between one window and one window and an eighth past the newest admission (and at
 * least a second ahead): it is set when the newest admission enters a new eighth of a window, so most
 * admissions leave it alone.
 *
 * KEYS[1] the counter's key; KEYS[2] its key under the previous layout (read once, when KEYS[1] is missing,
 * and deleted once carried over). ARGV: permitLimit, windowMicros, segments per window (0 = exact), the
 * layout (its byte, header and record struct formats: see counter-layout.ts, which works them out once per
 * policy), and optionally nowMicros (without it the script asks the server's TIME, so application clocks
 * never matter).
 *
 * Reply: one integer (see decodeReply), or { allowed 0|1, remaining, resetSeconds, retryAfterSeconds } when a
 * number is too large for that.
 */
import { createHash } from 'node:crypto';

export const SLIDING_WINDOW_SCRIPT = `
local limit, windowUs, segments, FMT = ARGV[1] + 0, ARGV[2] + 0, ARGV[3] + 0, ARGV[4] + 0
local HF, RF = ARGV[5], ARGV[6]
local nowUs = ARGV[7]
if nowUs then
  nowUs = tonumber(nowUs)
else
  local t = redis.call('TIME')
  nowUs = t[1] * 1000000 + t[2]
end
local key = KEYS[1]
local floor, ceil, pack, unpack, byte = math.floor, math.ceil, struct.pack, struct.unpack, string.byte
local SPLIT, MAGIC = 67108864, 179

-- The layout this policy wants (worked out by the client): time unit, widths of a record's time and
-- admissions (0 = exact), of a ring index; header and record struct formats.
local W, K, I = FMT % 8, floor(FMT / 8) % 8, floor(FMT / 64) % 2 + 1
local unit = FMT >= 128 and 1000 or 1
local exact = K == 0
local wu = ceil(windowUs / unit)
local M = 256 ^ W
local H, R = 9 + 2 * W + 3 * I + 2 * K, W + K
local cap, segU = limit, 0
if not exact then cap, segU = segments + 2, windowUs / segments / unit end
local nowHi, nowLo = ceil(nowUs / unit), floor(nowUs / unit)

-- The longest header is 41 bytes: reading that many costs no more than reading the exact length.
local hdr = redis.call('GETRANGE', key, '0', '40')
if #hdr >= H and byte(hdr, 1) == MAGIC and byte(hdr, 2) == FMT then
  local _, N, F, S, C, front, count, backCount, used
  _, _, N, F, S, C, front, count, backCount, used = unpack(HF, hdr)
  F = N - (N - F) % M
  S = N - (N - S) % M
  if exact then used = count end
  -- A clock that went back stands still at the newest admission instead.
  if nowHi < N then nowLo, nowHi = nowLo + N - nowHi, N end
  if N + wu <= nowLo then
    -- Even the newest admission left the window: nothing to read.
    count, used = 0, 0
  elseif F + wu <= nowLo then
    -- The front record left the window: drop records from the front, up to 8 read at a time.
    while true do
      if count == 1 then
        if N + wu <= nowLo then count, used = 0, 0 else F = N end
        break
      end
      local n = count - 1
      if n > 8 then n = 8 end
      if front + n > C then n = C - front end
      local records = redis.call('GETRANGE', key, string.format('%d', H + front * R), string.format('%d', H + (front + n) * R - 1))
      local live = false
      for i = 0, n - 1 do
        local t, c = unpack(RF, records, 1 + i * R)
        t = N - (N - t) % M
        if t + wu > nowLo then
          F, live = t, true
          break
        end
        if exact then used = used - 1 else used = used - c end
        count, front = count - 1, front + 1
        if front == C then front = 0 end
      end
      if live then break end
    end
  end

  if used >= limit then
    local reset = ceil((F + wu - nowLo) * unit / 1000000)
    if reset < 1 then reset = 1 end
    local wait = reset
    if used > limit then
      -- Fewer permits than admissions (the limit was lowered): wait for the record that frees enough.
      local need, at, freed = used - limit + 1, front, 0
      local blocker = N
      for i = 0, count - 2 do
        local t, c = unpack(RF, redis.call('GETRANGE', key, string.format('%d', H + at * R), string.format('%d', H + (at + 1) * R - 1)))
        if exact then c = 1 end
        freed = freed + c
        if freed >= need then
          blocker = N - (N - t) % M
          break
        end
        at = at + 1
        if at == C then at = 0 end
      end
      wait = ceil((blocker + wu - nowLo) * unit / 1000000)
      if wait < 1 then wait = 1 end
    end
    if reset < 2 * SPLIT and wait < SPLIT then return -1 - (reset * SPLIT + wait) end
    return { 0, 0, reset, wait }
  end

  local moved = floor(nowHi / (wu / 8)) ~= floor(N / (wu / 8))
  local ring = nil
  if count == 0 then
    front, count, F, S, N, backCount = 0, 1, nowHi, nowHi, nowHi, 1
  elseif not exact and (N == nowHi or nowHi - S < segU or count >= segments + 2) then
    backCount, N = backCount + 1, nowHi
    if count == 1 then F = N end
  else
    -- The newest record moves from the header into its ring slot; the new one takes its place.
    local back = front + count - 1
    if back >= C then back = back - C end
    local record = pack(RF, N % M, backCount)
    if count == C then
      -- The ring is full: lay it out oldest first with room for about as many again, written whole below.
      ring = redis.call('GETRANGE', key, string.format('%d', H), string.format('%d', H + C * R - 1))
      ring = string.sub(ring, front * R + 1) .. string.sub(ring, 1, front * R)
      local grown = 2 * (C + 1)
      if grown > cap then grown = cap end
      ring = string.sub(ring, 1, (C - 1) * R) .. record .. string.rep('\\0', (grown - C) * R)
      front, C = 0, grown
    else
      redis.call('SETRANGE', key, string.format('%d', H + back * R), record)
    end
    if exact then
      if nowHi ~= N then S = nowHi end
    else
      S, backCount = nowHi, 1
    end
    count, N = count + 1, nowHi
  end
  used = used + 1
  if S < N - wu then S = N - wu end
  local head = pack(HF, MAGIC, FMT, N, F % M, S % M, C, front, count, backCount, used)
  if ring or moved then
    local g = wu / 8
    local ms = ceil(((floor(N / g) + 9) * g * unit - nowUs) / 1000) + 1
    if ms < 1000 then ms = 1000 end
    if ring then
      redis.call('SET', key, head .. ring, 'PX', string.format('%d', ms))
    else
      redis.call('SETRANGE', key, '0', head)
      redis.call('PEXPIRE', key, string.format('%d', ms))
    end
  else
    redis.call('SETRANGE', key, '0', head)
  end
  local remaining, reset = limit - used, ceil((F + wu - nowLo) * unit / 1000000)
  if remaining < 2 * SPLIT and reset < SPLIT then return remaining * SPLIT + reset end
  return { 1, remaining, reset, 0 }
end

if #hdr == 0 and redis.call('EXISTS', KEYS[2]) == 0 then
  -- A new counter: one record, in the header, and a ring of up to 4 slots.
  local C = cap < 4 and cap or 4
  local g = wu / 8
  local ms = ceil(((floor(nowHi / g) + 9) * g * unit - nowUs) / 1000) + 1
  if ms < 1000 then ms = 1000 end
  redis.call('SET', key, pack(HF, MAGIC, FMT, nowHi, nowHi % M, nowHi % M, C, 0, 1, 1, 1) .. string.rep('\\0', C * R), 'PX', string.format('%d', ms))
  local reset = ceil((nowHi + wu - nowLo) * unit / 1000000)
  if limit - 1 < 2 * SPLIT and reset < SPLIT then return (limit - 1) * SPLIT + reset end
  return { 1, limit - 1, reset, 0 }
end

local function seconds(t)
  local s = ceil((t + wu - nowLo) * unit / 1000000)
  if s < 1 then s = 1 end
  return s
end
local function layout(w, k, i)
  local h = '>BBI7I' .. w .. 'I' .. w .. 'I' .. i .. 'I' .. i .. 'I' .. i
  if k > 0 then h = h .. 'I' .. k .. 'I' .. k end
  return h, 9 + 2 * w + 3 * i + 2 * k, '>I' .. w .. (k > 0 and ('I' .. k) or '')
end

-- Slow path: read every live record as (time, admissions) pairs in this policy's time unit, oldest first,
-- equal times merged (as the in-process store keeps them), decide, and write the value anew.
local ts, cs, S, N = {}, {}, nil, nil
local n, used = 0, 0
local function add(t, c)
  if t + wu <= nowLo then return end
  if n > 0 and ts[n] == t then
    cs[n] = cs[n] + c
  else
    n = n + 1
    ts[n], cs[n] = t, c
  end
  used = used + c
end
local migrated = false
local value = #hdr > 0 and redis.call('GET', key) or nil
if value and #value >= 9 and byte(value, 1) == MAGIC then
  local f = byte(value, 2)
  local w, k, i, u = f % 8, floor(f / 8) % 8, floor(f / 64) % 2 + 1, f >= 128 and 1000 or 1
  local hf, h, rf = layout(w, k, i)
  local r, m = w + k, 256 ^ w
  if #value >= h then
    local _, _, n2, f2, s2, c2, front2, count2, back2 = unpack(hf, value)
    if w > 0 and #value == h + c2 * r and count2 >= 1 and count2 <= c2 and front2 < c2 then
      local conv = function(t) return ceil((n2 - (n2 - t) % m) * u / unit) end
      S = floor((n2 - (n2 - s2) % m) * u / unit)
      for j = 0, count2 - 2 do
        local t, c = unpack(rf, value, 1 + h + ((front2 + j) % c2) * r)
        add(conv(t), k > 0 and c or 1)
      end
      add(ceil(n2 * u / unit), k > 0 and back2 or 1)
      N = ceil(n2 * u / unit)
    end
  end
elseif not value then
  -- No counter yet: carry over the live admissions of the previous layout's key, if any.
  local old = redis.call('GET', KEYS[2])
  if old and #old >= 64 and (#old - 48) % 16 == 0 then
    local _, ns, _, first, count2 = unpack('>ddddd', old, #old - 47)
    if count2 == (#old - 48) / 16 and first >= 0 and first < count2 then
      for j = first, count2 - 1 do
        local latest, c = unpack('>dd', old, 1 + j * 16)
        add(ceil(latest / unit), c)
        N = ceil(latest / unit)
      end
      S, migrated = floor(ns / unit), true
    end
  end
end
if N and nowHi < N then nowLo, nowHi = nowLo + N - nowHi, N end

if used >= limit then
  local reset = seconds(ts[1])
  local wait, freed = reset, 0
  for j = 1, n do
    freed = freed + cs[j]
    if used - freed < limit then
      wait = seconds(ts[j])
      break
    end
  end
  if reset < 2 * SPLIT and wait < SPLIT then return -1 - (reset * SPLIT + wait) end
  return { 0, 0, reset, wait }
end

if n > 0 and (ts[n] == nowHi or (not exact and (nowHi - S < segU or n >= segments + 2))) then
  if nowHi > ts[n] then ts[n] = nowHi end
  cs[n] = cs[n] + 1
else
  n = n + 1
  ts[n], cs[n], S = nowHi, 1, nowHi
end
used = used + 1
-- A segmented ring holds at most cap records: fold the oldest into the next (a permit then frees later).
while not exact and n > cap do
  cs[2], ts[2] = cs[2] + cs[1], ts[2]
  table.remove(ts, 1)
  table.remove(cs, 1)
  n = n - 1
end

local biggest = limit
if used > biggest then biggest = used end
for j = 1, n do
  if cs[j] > biggest then biggest = cs[j] end
end
local k = K
if not exact then
  while 256 ^ k <= biggest do k = k + 1 end
end
local _, _, rf = layout(W, k, 1)
local records = {}
local count = 0
for j = 1, n do
  if exact then
    local one = pack(rf, ts[j] % M)
    for _ = 1, cs[j] do
      count = count + 1
      records[count] = one
    end
  else
    count = count + 1
    records[count] = pack(rf, ts[j] % M, cs[j])
  end
end
local C = count
if count <= cap then
  C = 2 * count
  if C < 4 then C = 4 end
  if C > cap then C = cap end
end
local i = (C > 255 or cap > 255) and 2 or 1
local hf = layout(W, k, i)
N = ts[n]
if S < N - wu then S = N - wu end
local head = pack(hf, MAGIC, W + 8 * k + 64 * (i - 1) + (unit > 1 and 128 or 0), N, ts[1] % M, S % M, C, 0, count, cs[n], used)
local r = W + k
local g = wu / 8
local ms = ceil(((floor(N / g) + 9) * g * unit - nowUs) / 1000) + 1
if ms < 1000 then ms = 1000 end
redis.call('SET', key, head .. table.concat(records) .. string.rep('\\0', (C - count) * r), 'PX', string.format('%d', ms))
if migrated then redis.call('DEL', KEYS[2]) end
local remaining, reset = limit - used, seconds(ts[1])
if remaining < 2 * SPLIT and reset < SPLIT then return remaining * SPLIT + reset end
return { 1, remaining, reset, 0 }
`;

/** SHA-1 of the script, as Redis names it for EVALSHA. */
export const SLIDING_WINDOW_SHA = createHash('sha1').update(SLIDING_WINDOW_SCRIPT).digest('hex');
