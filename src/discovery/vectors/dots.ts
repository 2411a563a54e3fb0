/**
 * Every tool's dot product with a query vector, in WebAssembly. A search scores each tool of the
 * catalogue this way (64 multiply-adds a tool, 34,000 for 527 tools), once, in a process that
 * ends a few milliseconds later: as JavaScript that loop ran in the interpreter and cost about
 * 20M instructions, a sixth of the ranking (issue 14); as WebAssembly it is compiled at once
 * (well under 1M instructions) and runs at machine speed. The arithmetic is JavaScript's: each
 * product and sum in float64, in the same order, so the results are the same to the bit.
 *
 * The module is written out below as bytes, one line per instruction, with its text form beside
 * it; `dots(count, dims, query, out)` reads the tools' int8 values from address 0, the query's
 * float64s from `query`, and writes each tool's float64 sum at `out`.
 */

// Instructions and types (WebAssembly core spec, binary format).
const I32 = 0x7f;
const F64 = 0x7c;
const BLOCK = 0x02;
const LOOP = 0x03;
const VOID = 0x40;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_LOAD8_S = 0x2c;
const F64_LOAD = 0x2b;
const F64_STORE = 0x39;
const I32_CONST = 0x41;
const F64_CONST = 0x44;
const I32_GE_U = 0x4f;
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const F64_ADD = 0xa0;
const F64_MUL = 0xa2;
const F64_CONVERT_I32_S = 0xb7;

// The function's parameters and locals, by index.
const COUNT = 0;
const DIMS = 1;
const QUERY = 2;
const OUT = 3;
const TOOL = 4;
const DIM = 5;
const AT = 6;
const TOTAL = 7;

/** The function's body: (local i32 i32 i32 f64) then the instructions. */
const BODY = [
  [2, 3, I32, 1, F64], // locals: $tool $dim $at (i32), $total (f64)
  [BLOCK, VOID], //                                  block $done
  [LOOP, VOID], //                                     loop $tools
  [LOCAL_GET, TOOL, LOCAL_GET, COUNT, I32_GE_U], //      tool >= count
  [BR_IF, 1], //                                         br_if $done
  [F64_CONST, 0, 0, 0, 0, 0, 0, 0, 0, LOCAL_SET, TOTAL], // total = 0
  [I32_CONST, 0, LOCAL_SET, DIM], //                     dim = 0
  [BLOCK, VOID], //                                      block $dimsDone
  [LOOP, VOID], //                                         loop $dims
  [LOCAL_GET, DIM, LOCAL_GET, DIMS, I32_GE_U], //            dim >= dims
  [BR_IF, 1], //                                             br_if $dimsDone
  [LOCAL_GET, TOTAL], //                                     total +
  [LOCAL_GET, AT, I32_LOAD8_S, 0, 0, F64_CONVERT_I32_S], //    (f64) tools[at]
  [LOCAL_GET, QUERY, LOCAL_GET, DIM, I32_CONST, 3, I32_SHL, I32_ADD, F64_LOAD, 3, 0], // * query[dim]
  [F64_MUL, F64_ADD, LOCAL_SET, TOTAL],
  [LOCAL_GET, AT, I32_CONST, 1, I32_ADD, LOCAL_SET, AT], //  at++
  [LOCAL_GET, DIM, I32_CONST, 1, I32_ADD, LOCAL_SET, DIM], // dim++
  [BR, 0], //                                                br $dims
  [END, END], //                                         end loop, end block
  [LOCAL_GET, OUT, LOCAL_GET, TOOL, I32_CONST, 3, I32_SHL, I32_ADD], // out[tool] =
  [LOCAL_GET, TOTAL, F64_STORE, 3, 0], //                  total
  [LOCAL_GET, TOOL, I32_CONST, 1, I32_ADD, LOCAL_SET, TOOL], // tool++
  [BR, 0], //                                            br $tools
  [END, END, END], //                                  end loop, end block, end func
].flat();

const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
const name = (text: string): number[] => [text.length, ...Array.from(text, (char) => char.charCodeAt(0))];

/** An unsigned LEB128 number. */
function leb(value: number): number[] {
  const bytes: number[] = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    bytes.push(value === 0 ? low : low | 0x80);
  } while (value !== 0);
  return bytes;
}

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // \0asm, version 1
  ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 0]), // type 0: (i32 i32 i32 i32) -> ()
  ...section(3, [1, 0]), // function 0 has type 0
  ...section(5, [1, 0, 1]), // one memory, at least one page
  ...section(7, [2, ...name("memory"), 2, 0, ...name("dots"), 0, 0]), // exports
  ...section(10, [1, ...leb(BODY.length), ...BODY]), // code
]);

const PAGE = 64 * 1024;

/** The module's exports. */
interface Kernel {
  memory: { readonly buffer: ArrayBuffer; grow(pages: number): number };
  dots: (count: number, dims: number, query: number, out: number) => void;
}

/** The part of the WebAssembly global used here (the lib this compiles against has no WebAssembly types: Node has the global). */
interface WebAssemblyGlobal {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}

let kernel: Kernel | undefined;

function compiled(): Kernel {
  if (!kernel) {
    const wasm = (globalThis as unknown as { WebAssembly: WebAssemblyGlobal }).WebAssembly;
    kernel = new wasm.Instance(new wasm.Module(MODULE), {}).exports as Kernel;
  }
  return kernel;
}

/** `tools` holds `dims` int8 values a tool; the result holds each tool's Σ tools[d] × query[d], as JavaScript sums them in order. */
export function dotProducts(tools: Int8Array, dims: number, query: Float64Array): Float64Array {
  const count = Math.floor(tools.length / dims);
  const { memory, dots } = compiled();
  const queryAt = Math.ceil(tools.length / 8) * 8;
  const outAt = queryAt + 8 * dims;
  const bytes = outAt + 8 * count;
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  new Int8Array(memory.buffer, 0, tools.length).set(tools);
  new Float64Array(memory.buffer, queryAt, dims).set(query.subarray(0, dims));
  dots(count, dims, queryAt, outAt);
  return new Float64Array(memory.buffer.slice(outAt, outAt + 8 * count));
}
