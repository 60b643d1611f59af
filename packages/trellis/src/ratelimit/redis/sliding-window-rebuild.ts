/**
 * The rebuild path that ends the sliding-window script's `acquire` (sliding-window-script.ts), for a value of
 * another layout (the policy's limit or window changed) or one this store did not write. It uses the fast
 * paths' locals: limit, windowUs, segments, W, K, unit, exact, wu, M, cap, segU, RF, nowUs, nowHi, nowLo,
 * MIN_TTL, hdr, key and the struct/math shorthands.
 */
export const REBUILD_PATH = `
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
end
if N and nowHi < N then nowLo, nowHi = nowLo + N - nowHi, N end

if used + cost > limit then
  local reset, wait = WIN, WIN
  if n > 0 then
    reset = seconds(ts[1])
    local freed = 0
    if cost <= limit then
      for j = 1, n do
        freed = freed + cs[j]
        if used - freed + cost <= limit then
          wait = seconds(ts[j])
          break
        end
      end
    end
  end
  local left = limit - used
    if left < 0 then left = 0 end
    return string.format('-%d,%d,%d', reset, wait, left)
end

if n > 0 and (ts[n] == nowHi or (not exact and (nowHi - S < segU or n >= segments + 2))) then
  if nowHi > ts[n] then ts[n] = nowHi end
  cs[n] = cs[n] + cost
else
  n = n + 1
  ts[n], cs[n], S = nowHi, cost, nowHi
end
used = used + cost
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
if ms < MIN_TTL then ms = MIN_TTL end
redis.call('SET', key, head .. table.concat(records) .. string.rep('\\0', (C - count) * r), 'PX', string.format('%d', ms))
local remaining, reset = limit - used, seconds(ts[1])
return string.format('%d,%d', remaining, reset)
`;
