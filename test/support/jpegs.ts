/**
 * JPEGs carrying what a phone's photo carries: an EXIF block with a GPS position, XMP, IPTC, an ICC
 * profile, a comment and data after the image's end, each holding a marker string a test can look
 * for in a PDF made from it.
 */

const segment = (marker: number, body: Buffer): Buffer => {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | marker, 0);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([header, body]);
};

/** A big-endian IFD entry: tag, type, count and a value or offset of 4 bytes. */
const entry = (tag: number, type: number, count: number, value: Buffer): Buffer => {
  const out = Buffer.alloc(12);
  out.writeUInt16BE(tag, 0);
  out.writeUInt16BE(type, 2);
  out.writeUInt32BE(count, 4);
  value.copy(out, 8);
  return out;
};

const u32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};

/** APP1 "Exif": IFD0 pointing to a GPS IFD with latitude 51° 30′ N and the marker as its area information. */
export function exifWithGps(marker: string): Buffer {
  const area = Buffer.concat([Buffer.from("ASCII\0\0\0"), Buffer.from(marker)]);
  // TIFF header (8), IFD0 with one entry (2 + 12 + 4), then the GPS IFD with three (2 + 36 + 4).
  const gpsAt = 8 + 18;
  const latitudeAt = gpsAt + 42;
  const areaAt = latitudeAt + 24;
  const rationals = Buffer.concat([u32(51), u32(1), u32(30), u32(1), u32(0), u32(1)]);
  const tiff = Buffer.concat([
    Buffer.from("MM\0*"),
    u32(8),
    Buffer.from([0, 1]),
    entry(0x8825, 4, 1, u32(gpsAt)),
    u32(0),
    Buffer.from([0, 3]),
    entry(0x0001, 2, 2, Buffer.from("N\0\0\0")),
    entry(0x0002, 5, 3, u32(latitudeAt)),
    entry(0x001c, 7, area.length, u32(areaAt)),
    u32(0),
    rationals,
    area,
  ]);
  return segment(0xe1, Buffer.concat([Buffer.from("Exif\0\0"), tiff]));
}

/** The metadata segments of a photo, each with `marker` in it. */
export function metadataSegments(marker: string): Buffer[] {
  return [
    exifWithGps(marker),
    segment(
      0xe1,
      Buffer.from(
        `http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="51,30N">${marker}</rdf:Description></rdf:RDF></x:xmpmeta>`,
      ),
    ),
    segment(0xe2, Buffer.concat([Buffer.from("ICC_PROFILE\0\x01\x01"), Buffer.from(marker)])),
    segment(
      0xed,
      Buffer.concat([
        Buffer.from("Photoshop 3.0\x008BIM\x04\x04\0\0"),
        u32(marker.length + 5),
        Buffer.from([0x1c, 2, 120, 0, marker.length]),
        Buffer.from(marker),
      ]),
    ),
    segment(0xfe, Buffer.from(marker)),
  ];
}

/** `jpeg` with every kind of metadata after its JFIF header, and `marker` again after its end. */
export function withMetadata(jpeg: Uint8Array, marker: string): Buffer {
  const bytes = Buffer.from(jpeg);
  // After SOI, and after a JFIF APP0 if there is one, as cameras write them.
  const jfif = bytes[3] === 0xe0 ? 4 + bytes.readUInt16BE(4) : 2;
  return Buffer.concat([
    bytes.subarray(0, jfif),
    ...metadataSegments(marker),
    bytes.subarray(jfif),
    Buffer.from(`trailer ${marker}`),
  ]);
}
