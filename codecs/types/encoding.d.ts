// The one platform API codecs/src uses: WHATWG TextEncoder/TextDecoder, present in Node, browsers and
// workers alike. Declared here (only for codecs/tsconfig.json) instead of pulling in the DOM or Node libs.
interface TextDecodeOptions {
  stream?: boolean;
}

interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}

interface TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array<ArrayBuffer>;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

interface TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  decode(input?: ArrayBuffer | ArrayBufferView, options?: TextDecodeOptions): string;
}

declare var TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
declare var TextDecoder: { prototype: TextDecoder; new (label?: string, options?: TextDecoderOptions): TextDecoder };
