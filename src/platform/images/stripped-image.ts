// What the format walkers (jpeg.ts, png.ts) answer, apart from images.ts, which calls them.

/** The stripped file and the size its header declares. */
export interface StrippedImage {
  bytes: Buffer;
  width: number;
  height: number;
}
