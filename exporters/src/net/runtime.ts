// The JavaScript the network-server decoders carry: a port of the studio's decoders and text
// representation to ECMAScript 5 (no require, no BigInt, DataView or TextDecoder), because TTN,
// ChirpStack and TS013 codecs run in small embedded engines. The per-layout program `P` (built by
// program.ts from the codecs' own plans) drives it; tests compare it with our decoders sample by sample.

/** Text and number output, UTF-8, floats and 64-bit integers from 32-bit words, timestamps. */
export const RUNTIME_COMMON = String.raw`
function fail(m) { throw new Error(m); }
function nonFinite(x) { return x !== x ? "NaN" : x > 0 ? "Infinity" : "-Infinity"; }
function finite(x) { return x === x && x !== Infinity && x !== -Infinity; }
function pad0(s, w) { while (s.length < w) s = "0" + s; return s; }
// Python's f"{x:.{d}f}": exact ties go to the even neighbour, where toFixed rounds away from zero
function pyFixed(x, d) {
  if (!finite(x)) return nonFinite(x);
  if (x >= 1e21 || x <= -1e21) return wholeDigits(x) + (d > 0 ? "." + new Array(d + 1).join("0") : "");
  var s = x === 0 && 1 / x < 0 ? "-" + x.toFixed(d) : x.toFixed(d);
  var m = x * Math.pow(2, d + 1);
  if (!finite(m) || Math.floor(m) !== m) return s;
  var extra = Math.min(100, d + 60), exact = x.toFixed(extra), tail = exact.slice(exact.length - (extra - d));
  if (!/^50*$/.test(tail)) return s;
  var t = exact.slice(0, exact.length - tail.length).replace(/\.$/, "");
  return +t.charAt(t.length - 1) % 2 === 0 ? t : s;
}
// every digit of a whole double (toFixed writes an exponent from 1e21 on): m·2^e doubled e times in base 10^7
function wholeDigits(x) {
  var neg = x < 0, e = 0, i, v, carry, out;
  x = Math.abs(x);
  while (x >= 9007199254740992) { x /= 2; e++; }
  var limbs = [x % 1e7, Math.floor(x / 1e7) % 1e7, Math.floor(x / 1e14)];
  for (; e > 0; e--) {
    for (carry = 0, i = 0; i < limbs.length; i++) { v = limbs[i] * 2 + carry; carry = v >= 1e7 ? 1 : 0; limbs[i] = v - carry * 1e7; }
    if (carry) limbs.push(carry);
  }
  while (limbs.length > 1 && limbs[limbs.length - 1] === 0) limbs.pop();
  out = String(limbs[limbs.length - 1]);
  for (i = limbs.length - 2; i >= 0; i--) out += pad0(String(limbs[i]), 7);
  return neg ? "-" + out : out;
}
// Python's repr(float)
function pyRepr(x) {
  if (!finite(x)) return nonFinite(x);
  if (x === 0) return 1 / x < 0 ? "-0.0" : "0.0";
  var e = +Math.abs(x).toExponential().split("e")[1];
  if (e >= -4 && e < 16) {
    var s = String(x);
    if (s.indexOf("e") >= 0) return plainDecimal(x);
    return s.indexOf(".") >= 0 ? s : s + ".0";
  }
  var p = x.toExponential().split("e"), n = +p[1];
  return p[0] + "e" + (n < 0 ? "-" : "+") + pad0(String(Math.abs(n)), 2);
}
function plainDecimal(x) {
  var p = x.toExponential().split("e"), n = +p[1], neg = p[0].charAt(0) === "-";
  var dg = p[0].replace("-", "").replace(".", ""), out;
  if (n < 0) out = "0." + new Array(-n).join("0") + dg;
  else out = dg.length > n + 1 ? dg.slice(0, n + 1) + "." + dg.slice(n + 1) : dg + new Array(n + 2 - dg.length).join("0") + ".0";
  return neg ? "-" + out : out;
}
// the digits a float32 device prints: the shortest decimal that reads back to the same float32 (9 digits at most)
function f32Short(x) {
  for (var p = 1; p <= 9; p++) { var s = x.toExponential(p - 1); if (Math.fround(+s) === x) return +s; }
  return x;
}
function padInt(s, w) {
  var neg = s.charAt(0) === "-", b = neg ? s.slice(1) : s, dot = b.indexOf(".");
  var ip = dot < 0 ? b : b.slice(0, dot);
  b = pad0(ip, w) + (dot < 0 ? "" : b.slice(dot));
  return neg ? "-" + b : b;
}
var HEXD = "0123456789abcdef", B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function hex(a) { var s = ""; for (var i = 0; i < a.length; i++) s += HEXD.charAt(a[i] >> 4) + HEXD.charAt(a[i] & 15); return s; }
function base64(a) {
  var s = "";
  for (var i = 0; i < a.length; i += 3) {
    var n = (a[i] << 16) | ((a[i + 1] || 0) << 8) | (a[i + 2] || 0);
    s += B64.charAt((n >> 18) & 63) + B64.charAt((n >> 12) & 63) + (i + 1 < a.length ? B64.charAt((n >> 6) & 63) : "=") + (i + 2 < a.length ? B64.charAt(n & 63) : "=");
  }
  return s;
}
// strict UTF-8 (no overlongs, surrogates or code points beyond U+10FFFF)
function utf8(a) {
  var s = "", i = 0;
  while (i < a.length) {
    var c = a[i++], n = 0, cp = c, min = 0;
    if (c >= 0xf0 && c <= 0xf4) { n = 3; cp = c & 7; min = 0x10000; }
    else if (c >= 0xe0 && c <= 0xef) { n = 2; cp = c & 15; min = 0x800; }
    else if (c >= 0xc2 && c <= 0xdf) { n = 1; cp = c & 31; min = 0x80; }
    else if (c >= 0x80) fail("invalid UTF-8");
    for (var k = 0; k < n; k++) {
      var d = a[i++];
      if (d === undefined || (d & 0xc0) !== 0x80) fail("invalid UTF-8");
      cp = (cp << 6) | (d & 63);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail("invalid UTF-8");
    if (cp >= 0x10000) { cp -= 0x10000; s += String.fromCharCode(0xd800 + (cp >> 10), 0xdc00 + (cp & 1023)); }
    else s += String.fromCharCode(cp);
  }
  return s;
}
function f32(u) {
  var s = u >>> 31 ? -1 : 1, e = (u >>> 23) & 255, m = u & 0x7fffff;
  if (e === 255) return m ? NaN : s * Infinity;
  return e ? s * (m + 8388608) * Math.pow(2, e - 150) : s * m * Math.pow(2, -149);
}
function f64(hi, lo) {
  var s = hi >>> 31 ? -1 : 1, e = (hi >>> 20) & 2047, m = (hi & 0xfffff) * 4294967296 + lo;
  if (e === 2047) return m ? NaN : s * Infinity;
  return e ? s * (m + 4503599627370496) * Math.pow(2, e - 1075) : s * m * Math.pow(2, -1074);
}
// 64-bit integers stay two 32-bit words {h, l, s: signed}: exact without BigInt
function i64(h, l, signed) { return { h: h >>> 0, l: l >>> 0, s: signed }; }
function i64neg(v) { return v.s && v.h >= 2147483648; }
function i64mag(v) { return i64neg(v) ? { h: (~v.h + (v.l === 0 ? 1 : 0)) >>> 0, l: (~v.l + 1) >>> 0 } : v; }
function i64num(v) { var m = i64mag(v); if (m.h > 0x1fffff) return undefined; var n = m.h * 4294967296 + m.l; return i64neg(v) ? -n : n; }
function i64dec(v) {
  var m = i64mag(v), w = [m.h >>> 16, m.h & 65535, m.l >>> 16, m.l & 65535], out = "";
  while (w[0] || w[1] || w[2] || w[3]) {
    var r = 0;
    for (var i = 0; i < 4; i++) { var c = r * 65536 + w[i]; w[i] = Math.floor(c / 10); r = c % 10; }
    out = r + out;
  }
  return (i64neg(v) ? "-" : "") + (out || "0");
}
function i64json(v) { var n = i64num(v); return n === undefined ? i64dec(v) : n; }
// timestamp text formats (DD MM YY YYYY hh mm ss, ".s…" after ss for tenths …), UTC
function timeTokens(f) {
  var out = [], lit = "", names = ["YYYY", "YY", "MM", "DD", "hh", "mm", "ss"], i = 0;
  function flush() { if (lit) out.push({ k: "lit", t: lit }); lit = ""; }
  while (i < f.length) {
    var rest = f.slice(i), hit = null;
    for (var n = 0; n < names.length; n++) if (rest.indexOf(names[n]) === 0) { hit = names[n]; break; }
    if (hit) { flush(); out.push({ k: hit, w: hit.length }); i += hit.length; continue; }
    var fr = /^\.(s+)/.exec(rest), prev = out[out.length - 1];
    if (fr && !lit && prev && prev.k === "ss") { lit = "."; flush(); out.push({ k: "frac", w: fr[1].length }); i += fr[0].length; continue; }
    lit += f.charAt(i); i++;
  }
  flush();
  return out;
}
function daysIn(y, m) { return m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31; }
function checkTime(text, f) {
  var tk = timeTokens(f), i = 0, v = { YYYY: 1970, YY: 70, MM: 1, DD: 1, hh: 0, mm: 0, ss: 0 }, y = 1970;
  for (var k = 0; k < tk.length; k++) {
    var t = tk[k];
    if (t.k === "lit") { if (text.substr(i, t.t.length) !== t.t) fail("not a valid timestamp text"); i += t.t.length; continue; }
    var d = text.substr(i, t.w);
    if (!/^[0-9]+$/.test(d) || d.length !== t.w) fail("not a valid timestamp text");
    v[t.k] = +d; i += t.w;
    if (t.k === "YYYY") y = +d; else if (t.k === "YY") y = 2000 + +d;
  }
  if (i !== text.length || v.MM < 1 || v.MM > 12 || v.DD < 1 || v.DD > daysIn(y, v.MM) || v.hh > 23 || v.mm > 59 || v.ss > 59) fail("not a valid timestamp text");
  return text;
}
function formatTime(epoch, f, res) {
  var tk = timeTokens(f), fw = 0;
  for (var k = 0; k < tk.length; k++) if (tk[k].k === "frac") { fw = tk[k].w; break; }
  var ticks = Math.round(epoch / res), whole = Math.floor(ticks * res + 1e-9);
  if (!(whole >= -62167219200 && whole <= 253402300799)) fail("time outside the years 0000-9999");
  var days = Math.floor(whole / 86400), sod = whole - days * 86400;
  var h = Math.floor(sod / 3600), mi = Math.floor((sod - h * 3600) / 60), s = sod - h * 3600 - mi * 60;
  var z = days + 719468, era = Math.floor(z / 146097), doe = z - era * 146097;
  var yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  var doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)), mp = Math.floor((5 * doy + 2) / 153);
  var D = doy - Math.floor((153 * mp + 2) / 5) + 1, M = mp < 10 ? mp + 3 : mp - 9, Y = yoe + era * 400 + (M <= 2 ? 1 : 0);
  var per = Math.pow(10, fw), sub = ((ticks % per) + per) % per, out = "";
  for (k = 0; k < tk.length; k++) {
    var t = tk[k], n;
    if (t.k === "lit") { out += t.t; continue; }
    n = t.k === "YYYY" ? Y : t.k === "YY" ? Y % 100 : t.k === "MM" ? M : t.k === "DD" ? D : t.k === "hh" ? h : t.k === "mm" ? mi : t.k === "ss" ? s : t.w === fw ? sub : Math.floor((sub / per) * Math.pow(10, t.w));
    out += pad0(String(n), t.w);
  }
  return out;
}
// typed value -> the record's plain JSON form, per the field's text representation
var PADDED = { int: 1, i64: 1, f32: 1, f64: 1, fixed: 1, enm: 1 };
function text(s, v, r) {
  var t;
  switch (s.k) {
    case "bool": t = v ? "1" : "0"; break;
    case "enm": case "str": case "ttime": t = v; break;
    case "bytes": t = hex(v); break;
    case "int": t = String(v); break;
    case "i64": t = i64dec(v); break;
    case "epoch": t = r.d !== undefined ? pyFixed(v, r.d) : String(v); break;
    default: t = r.d !== undefined ? pyFixed(v, r.d) : pyRepr(v);
  }
  return r.p !== undefined && PADDED[s.k] ? padInt(t, r.p) : t;
}
function plain(s, v) {
  switch (s.k) {
    case "enm": return s.v[s.n.indexOf(v)];
    case "i64": return i64json(v);
    case "bytes": return base64(v);
    case "f32": return finite(v) ? f32Short(v) : nonFinite(v);
    case "f64": return finite(v) ? v : nonFinite(v);
    default: return v;
  }
}
function output(fs, obj) {
  var out = {};
  for (var i = 0; i < fs.length; i++) {
    var f = fs[i], v = obj[f.k];
    if (v === undefined) continue;
    if (f.g) { out[f.k] = output(f.g, v); continue; }
    var r = f.r;
    if (f.a) {
      var items = [];
      for (var j = 0; j < v.length; j++) items.push(r ? text(f.s, v[j], r) : plain(f.s, v[j]));
      out[f.k] = r && r.sep !== undefined ? items.join(r.sep) : items;
    } else out[f.k] = r ? text(f.s, v, r) : plain(f.s, v);
  }
  return out;
}
// raw fixed-point / tick integers -> values, as the studio's decoders compute them
function fixedValue(x, raw) {
  if (raw === undefined || raw < x.rmin || raw > x.rmax) fail("fixed-point raw " + raw + " is outside " + x.rmin + ".." + x.rmax);
  var t = raw * x.st + x.ot, v = x.ex && Math.abs(t) <= 9007199254740991 ? t / x.pw : raw * x.sc + x.of;
  return Math.min(Math.max(v, x.min), x.max);
}
function ticksValue(x, n) {
  if (n === undefined || Math.abs(n) > 9007199254740991) fail("ticks beyond the representable range");
  return x.div ? n / x.div : n * x.res;
}
`;

/** Little/big-endian byte reads shared by Struct and SBE. */
export const RUNTIME_BYTES = String.raw`
function need(c, n) { if (c.p + n > c.b.length) fail("truncated: needs " + n + " more bytes at byte " + c.p); }
function u8at(b, p) { return b[p]; }
function u16at(b, p, le) { return le ? b[p] | (b[p + 1] << 8) : (b[p] << 8) | b[p + 1]; }
function u32at(b, p, le) { return le ? (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0 : ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0; }
var SIZE = { b: 1, B: 1, h: 2, H: 2, i: 4, I: 4, q: 8, Q: 8, f: 4, d: 8 };
// the wire integer or float of a primitive ("raw"): numbers, or {h, l, s} for 64-bit integers
function rawAt(b, p, code, le) {
  var v;
  switch (code) {
    case "B": return b[p];
    case "b": v = b[p]; return v > 127 ? v - 256 : v;
    case "H": return u16at(b, p, le);
    case "h": v = u16at(b, p, le); return v > 32767 ? v - 65536 : v;
    case "I": return u32at(b, p, le);
    case "i": return u32at(b, p, le) | 0;
    case "f": return f32(u32at(b, p, le));
    case "d": return le ? f64(u32at(b, p + 4, true), u32at(b, p, true)) : f64(u32at(b, p, false), u32at(b, p + 4, false));
    default: return le ? i64(u32at(b, p + 4, true), u32at(b, p, true), code === "q") : i64(u32at(b, p, false), u32at(b, p + 4, false), code === "q");
  }
}
// raw -> typed value (bool, enum name, integer, float, fixed-point, epoch)
function numValue(s, raw) {
  switch (s.k) {
    case "bool": if (raw === 0) return false; if (raw === 1) return true; fail(raw + " is not a boolean (0 or 1)");
    case "enm": var i = s.v.indexOf(raw); if (i < 0) fail(raw + " is not a value of the enum"); return s.n[i];
    case "fixed": return fixedValue(s.x, typeof raw === "object" ? i64num(raw) : raw);
    case "epoch": return s.x ? ticksValue(s.x, i64num(raw)) : raw;
    default: return raw;
  }
}
function bytesAt(b, p, n) { var a = []; for (var i = 0; i < n; i++) a.push(b[p + i]); return a; }
`;

/** Struct: presence bitmap, values in place, lengths, appended strings after the in-place part. */
export const RUNTIME_STRUCT = String.raw`
function structText(c, w, s, at) {
  var n, start;
  if (w.m === 0) {
    need(c, w.n); start = c.p; c.p += w.n;
    return function () { return textValue(c.b, start, w.n, w, s, true); };
  }
  need(c, w.m % 2 ? 1 : 2);
  n = w.m % 2 ? c.b[c.p] : u16at(c.b, c.p, c.le);
  c.p += w.m % 2 ? 1 : 2;
  if (n > w.n) fail("length " + n + " exceeds maxLength " + w.n);
  if (w.m <= 2) { need(c, n); start = c.p; c.p += n; return function () { return textValue(c.b, start, n, w, s, false); }; }
  var box = {};
  c.tail.push(function () { need(c, n); box.v = textValue(c.b, c.p, n, w, s, false); c.p += n; });
  return function () { return box.v; };
}
function textValue(b, p, n, w, s, fixed) {
  var a = bytesAt(b, p, n);
  if (s.k === "bytes") { if (fixed && w.ex && a.length !== w.n) fail("fixed bytes"); return a; }
  if (s.k === "ttime") {
    if (n !== w.n) fail("a text timestamp is " + w.n + " bytes, got " + n);
    for (var i = 0; i < n; i++) if (a[i] > 127) fail("not a valid timestamp text");
    return checkTime(String.fromCharCode.apply(null, a), s.f);
  }
  if (fixed) {
    var z = 0;
    while (z < n && a[z] !== 0) z++;
    for (var k = z; k < n; k++) if (a[k] !== 0) fail("non-NUL byte in the padding");
    a = a.slice(0, z);
  }
  return utf8(a);
}
function structScalar(c, f, s, w) {
  if (w.c) {
    need(c, SIZE[w.c]);
    var raw = rawAt(c.b, c.p, w.c, c.le);
    c.p += SIZE[w.c];
    var v = numValue(s, raw);
    return function () { return v; };
  }
  return structText(c, w, s);
}
function present(c, bit) { return (c.bm[bit >> 3] >> (bit & 7)) & 1; }
function structFields(fs, c, obj) {
  var later = [];
  for (var i = 0; i < fs.length; i++) {
    var f = fs[i], w = f.w;
    if (w.b >= 0 && !present(c, w.b)) {
      for (var b = w.b + 1; b < w.e; b++) if (present(c, b)) fail(f.k + " is absent but presence bit " + b + " of a member is set");
      continue;
    }
    if (f.g) { obj[f.k] = {}; later.push(structFields(f.g, c, obj[f.k])); continue; }
    if (f.a) {
      var n = w.n;
      if (!w.fx) {
        need(c, w.cc === "H" ? 2 : 1);
        n = w.cc === "H" ? u16at(c.b, c.p, c.le) : c.b[c.p];
        c.p += w.cc === "H" ? 2 : 1;
        if (n > w.n) fail(f.k + ": count " + n + " exceeds maxCount " + w.n);
      }
      var gets = [];
      for (var j = 0; j < n; j++) gets.push(structScalar(c, f, f.s, w.el));
      later.push((function (o, k, g) { return function () { var a = []; for (var q = 0; q < g.length; q++) a.push(g[q]()); o[k] = a; }; })(obj, f.k, gets));
      continue;
    }
    later.push((function (o, k, g) { return function () { o[k] = g(); }; })(obj, f.k, structScalar(c, f, f.s, w)));
  }
  return function () { for (var q = 0; q < later.length; q++) later[q](); };
}
function decodeBytes(b) {
  var c = { b: b, p: 0, le: P.le, tail: [], bm: [] };
  if (P.bm) {
    need(c, P.bm);
    c.bm = bytesAt(b, 0, P.bm);
    c.p = P.bm;
    if (c.bm[P.bm - 1] >> (P.opt - (P.bm - 1) * 8)) fail("presence bitmap has bits set beyond the optional fields");
  }
  var rec = {}, fill = structFields(P.fs, c, rec);
  for (var t = 0; t < c.tail.length; t++) c.tail[t]();
  if (c.p !== b.length) fail((b.length - c.p) + " trailing bytes");
  fill();
  return rec;
}
`;

/** SBE 1.0: header, root block at offsets, repeating groups, then var data; null values mark absent optionals. */
export const RUNTIME_SBE = String.raw`
function sbeIsNull(b, p, w) {
  if (w.c) {
    var raw = rawAt(b, p, w.c, true);
    if (w.c === "f" || w.c === "d") return raw !== raw;
    if (typeof raw === "object") return raw.h === w.nh && raw.l === w.nl;
    return raw === w.nul;
  }
  if (w.ch) return w.n === 0 || b[p] === 0;
  for (var i = 0; i < w.n; i++) if (b[p + i] !== 255) return false;
  return true;
}
function sbeRead(b, p, w, s) {
  if (w.c) return numValue(s, rawAt(b, p, w.c, true));
  if (!w.ch) return bytesAt(b, p, w.n);
  if (s.k === "ttime") {
    var t = bytesAt(b, p, w.n);
    for (var i = 0; i < t.length; i++) if (t[i] > 127) fail("not a valid timestamp text");
    return checkTime(String.fromCharCode.apply(null, t), s.f);
  }
  var z = 0;
  while (z < w.n && b[p + z] !== 0) z++;
  for (var k = z; k < w.n; k++) if (b[p + k] !== 0) fail("non-NUL byte after the terminating NUL");
  return utf8(bytesAt(b, p, z));
}
function sbeLenient(b, p, w, s) { try { return sbeRead(b, p, w, s); } catch (e) { return undefined; } }
function sbeVar(c, isStr, max, k) {
  need(c, 2);
  var n = u16at(c.b, c.p, true);
  if (n > max) fail(k + ": length " + n + " exceeds maxLength " + max);
  c.p += 2; need(c, n);
  var a = bytesAt(c.b, c.p, n);
  c.p += n;
  return { n: n, v: isStr ? utf8(a) : a };
}
function sbeFields(fs, c, obj, og) {
  for (var i = 0; i < fs.length; i++) {
    var f = fs[i], w = f.w, lenient = f.o || og, v;
    if (f.g) {
      obj[f.k] = {};
      var own = og;
      if (f.o) { own = { mark: 0, parent: og, obj: obj, k: f.k, req: [] }; c.ogs.push(own); }
      else if (og) own = { mark: 0, parent: og, obj: null, k: f.k, req: og.req, proxy: og };
      sbeFields(f.g, c, obj[f.k], own);
      continue;
    }
    if (og && !f.o) og.req.push([obj, f.k]);
    if (w.t === "fix") {
      var p = 8 + w.o;
      if (!lenient) obj[f.k] = sbeRead(c.b, p, w, f.s);
      else if (sbeIsNull(c.b, p, w)) { if (!f.o) { v = sbeLenient(c.b, p, w, f.s); if (v !== undefined) obj[f.k] = v; } }
      else { obj[f.k] = sbeRead(c.b, p, w, f.s); mark(og); }
    } else if (w.t === "arr") {
      var arr = [], allNull = !!lenient, unreadable = false, size = w.el.n;
      for (var j = 0; j < w.cnt; j++) {
        var q = 8 + w.o + j * size;
        if (allNull && !sbeIsNull(c.b, q, w.el)) allNull = false;
        if (!lenient) arr.push(sbeRead(c.b, q, w.el, f.s));
        else { v = sbeLenient(c.b, q, w.el, f.s); if (v === undefined) unreadable = true; arr.push(v); }
      }
      if (lenient) {
        if (allNull && (f.o || unreadable)) continue;
        if (unreadable) for (j = 0; j < w.cnt; j++) arr[j] = sbeRead(c.b, 8 + w.o + j * size, w.el, f.s);
        if (!allNull) mark(og);
      }
      obj[f.k] = arr;
    } else if (w.t === "rep") {
      need(c, 4);
      var bl = u16at(c.b, c.p, true), cnt = u16at(c.b, c.p + 2, true), es = w.el.v ? 0 : w.el.n, items = [];
      if (bl < es) fail(f.k + ": group blockLength " + bl + " is less than the " + es + "-byte entry");
      if (w.fc ? cnt !== w.mx : cnt > w.mx) fail(f.k + ": numInGroup " + cnt + (w.fc ? " is not the fixed count " : " exceeds maxCount ") + w.mx);
      c.p += 4;
      for (var e = 0; e < cnt; e++) {
        need(c, bl);
        var at = c.p;
        c.p += bl;
        if (!w.el.v) items.push(sbeRead(c.b, at, w.el, f.s));
        else items.push(sbeVar(c, w.el.v === 1, w.el.mx, f.k).v);
      }
      if (cnt === 0 && f.o) continue;
      if (cnt > 0) mark(og);
      obj[f.k] = items;
    } else {
      c.vars.push((function (o, ff, g) {
        return function () {
          var r = sbeVar(c, ff.w.v === 1, ff.w.mx, ff.k);
          if (r.n > 0 || !ff.o) o[ff.k] = r.v;
          if (r.n > 0) mark(g);
        };
      })(obj, f, og));
    }
  }
}
function mark(g) { while (g) { g.mark = 1; g = g.parent; } }
function decodeBytes(b) {
  if (b.length < 8) fail("truncated: " + b.length + " bytes cannot hold the 8-byte message header");
  var bl = u16at(b, 0, true), tid = u16at(b, 2, true), sid = u16at(b, 4, true), ver = u16at(b, 6, true);
  if (tid !== P.tid) fail("templateId " + tid + " is not this layout's " + P.tid);
  if (sid !== P.sid) fail("schemaId " + sid + " is not this layout's " + P.sid);
  if (bl < P.bl) fail("blockLength " + bl + " is shorter than this layout's root block (" + P.bl + ")");
  if (8 + bl > b.length) fail("truncated: the root block needs " + bl + " bytes");
  var c = { b: b, p: 8 + bl, vars: [], ogs: [] }, rec = {};
  sbeFields(P.fs, c, rec, null);
  for (var i = 0; i < c.vars.length; i++) c.vars[i]();
  if (c.p !== b.length && ver <= P.ver) fail((b.length - c.p) + " trailing bytes");
  for (i = 0; i < c.ogs.length; i++) {
    var g = c.ogs[i];
    if (!g.mark) { delete g.obj[g.k]; continue; }
    for (var r = 0; r < g.req.length; r++) if (g.req[r][0][g.req[r][1]] === undefined) fail(g.k + " is present but a required member holds its null value");
  }
  return rec;
}
`;

/** Bit-packed: MSB-first bit fields, presence bits, quantised numbers, alphabets, zero padding. */
export const RUNTIME_BITS = String.raw`
function bit(c) {
  if (c.p >= c.b.length * 8) fail("truncated at bit " + c.p);
  var v = (c.b[c.p >> 3] >> (7 - (c.p & 7))) & 1;
  c.p++;
  return v;
}
// up to 32 bits as an unsigned number
function bits(c, n) { var v = 0; for (var i = 0; i < n; i++) v = v * 2 + bit(c); return v; }
// up to 64 bits as {h, l}
function bits64(c, n) { var h = n > 32 ? bits(c, n - 32) : 0; return { h: h, l: bits(c, Math.min(n, 32)) }; }
function add64(a, h, l) { var lo = a.l + l, carry = lo >= 4294967296 ? 1 : 0; return { h: (a.h + h + carry) >>> 0, l: lo >>> 0 }; }
function above64(a, h, l) { return a.h > h || (a.h === h && a.l > l); }
function quantValue(x, q) {
  if (q > x.qm) fail("step index " + q + " beyond " + x.qm);
  var v = x.tk ? (x.lt + q * x.stt) / x.pw : x.lo + q * x.st;
  return v > x.hi ? x.hi : v;
}
function bitsScalar(c, s, w) {
  var v, r;
  switch (w.t) {
    case "bool": return bit(c) === 1;
    case "enm": v = bits(c, w.n); if (v >= s.n.length) fail("enum index " + v + " out of range"); return s.n[v];
    case "int": v = bits(c, w.n); if (v > w.hi - w.lo) fail("integer beyond its range"); return v + w.lo;
    case "i64":
      r = bits64(c, w.n);
      if (above64(r, w.mh, w.ml)) fail("integer beyond its range");
      r = add64(r, w.lh, w.ll);
      return i64(r.h, r.l, w.sg);
    case "q":
      v = quantValue(w, bits(c, w.n));
      return s.k === "f32" ? Math.fround(v) : s.k === "ttime" ? formatTime(v, s.f, w.st) : v;
    case "qw":
      r = bits64(c, w.n);
      v = quantValue(w, r.h * 4294967296 + r.l);
      return s.k === "ttime" ? formatTime(v, s.f, w.st) : v;
    case "fx":
      v = bits(c, w.n);
      if (v > w.span) fail("fixed-point raw beyond its range");
      return fixedValue(w.x, v + w.x.rmin);
    case "ieee":
      if (w.n === 32) v = f32(bits(c, 32));
      else { r = bits64(c, 64); v = f64(r.h, r.l); }
      if (!finite(v)) fail("a raw float is NaN or infinite");
      if ((w.min !== undefined && v < w.min) || (w.max !== undefined && v > w.max)) fail(v + " is outside the field's range");
      return s.k === "ttime" ? formatTime(v, s.f, w.res) : v;
    case "str":
      var n = w.fx ? w.n : bits(c, w.lb), out = [], padded = false;
      if (n > w.n) fail("length " + n + " exceeds maxLength " + w.n);
      for (var i = 0; i < n; i++) {
        var sym = bits(c, w.cb);
        if (w.fx && sym === w.pad) { padded = true; continue; }
        if (padded) fail("characters after the padding of a fixed string");
        out.push(sym);
      }
      if (!w.al) return utf8(out);
      var t = "";
      for (i = 0; i < out.length; i++) { var ch = w.al.charAt(out[i]); if (!ch || ch === "\u0000") fail("symbol " + out[i] + " is not a character of the charset"); t += ch; }
      return t;
    case "bytes":
      var m = w.fx ? w.n : bits(c, w.lb), a = [];
      if (m > w.n) fail("length " + m + " exceeds maxLength " + w.n);
      for (var j = 0; j < m; j++) a.push(bits(c, 8));
      return a;
  }
}
function bitsFields(fs, c, obj) {
  for (var i = 0; i < fs.length; i++) {
    var f = fs[i], w = f.w;
    if (f.o && !bit(c)) continue;
    if (f.g) { obj[f.k] = {}; bitsFields(f.g, c, obj[f.k]); continue; }
    if (f.a) {
      var n = w.fx ? w.n : bits(c, w.cb), arr = [];
      if (n > w.n) fail(f.k + ": count " + n + " exceeds maxCount " + w.n);
      for (var j = 0; j < n; j++) arr.push(bitsScalar(c, f.s, w.el));
      obj[f.k] = arr;
    } else obj[f.k] = bitsScalar(c, f.s, w);
  }
}
function decodeBytes(b) {
  var c = { b: b, p: 0 }, rec = {};
  bitsFields(P.fs, c, rec);
  var used = (c.p + 7) >> 3;
  if (used < b.length) fail((b.length - used) + " bytes after the message");
  while (c.p < b.length * 8) if (bit(c)) fail("non-zero padding bits");
  return rec;
}
`;
