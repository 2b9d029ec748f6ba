#!/usr/bin/env bash
# Makes the sample images that the image checker's tests read, in this folder.
#
# Needs Debian's imagemagick, webp, libjpeg-turbo-progs and libimage-exiftool-perl:
#   apt-get install -y imagemagick webp libjpeg-turbo-progs libimage-exiftool-perl
# The pictures are seeded plasma noise, so a run makes the same sizes every time; the bytes
# may differ between tool versions, and the tests depend only on the kinds and sizes given below.
# Odd sizes are chosen on purpose: WebP stores width - 1 and height - 1, and an off-by-one
# there shows up only on an odd number.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# plasma: SIZE SEED OUT — a seeded, photo-like picture without alpha.
plasma() {
    convert -size "$1" -seed "$2" plasma:fractal -blur 0x1 -strip "$3"
}

# JPEG, baseline (SOF0), 161x121.
plasma 161x121 1 baseline.ppm
cjpeg -quality 80 -baseline -outfile "$here/baseline.jpg" baseline.ppm

# JPEG, progressive (SOF2, many scans), 203x147.
plasma 203x147 2 progressive.ppm
cjpeg -quality 80 -progressive -outfile "$here/progressive.jpg" progressive.ppm

# JPEG with EXIF (APP1) carrying an embedded 40x30 JPEG thumbnail, 241x181.
plasma 241x181 3 photo.ppm
cjpeg -quality 75 -outfile photo.jpg photo.ppm
convert photo.ppm -resize 40x30! -strip ppm:- | cjpeg -quality 60 -outfile thumb.jpg
exiftool -q -overwrite_original \
    -Make='Note Collector' -Model='Sample Camera' \
    -DateTimeOriginal='2024:05:01 12:00:00' -Orientation#=1 \
    '-ThumbnailImage<=thumb.jpg' photo.jpg
cp photo.jpg "$here/photo-exif.jpg"

# PNG, not interlaced, truecolour, 121x81.
plasma 121x81 4 "png24:$here/plain.png"

# PNG, Adam7-interlaced, truecolour with alpha, 97x67.
plasma 97x67 5 interlaced-source.png
convert interlaced-source.png -alpha set -channel A -evaluate set 80% +channel \
    -interlace PNG -strip "png32:$here/interlaced.png"

# PNG, indexed colour: a palette (PLTE) with one transparent entry (tRNS), 57x43.
plasma 57x43 10 indexed-source.png
convert indexed-source.png -alpha set -region 10x10+0+0 -alpha transparent +region \
    -colors 16 -strip "png8:$here/indexed.png"

# GIF, one frame, 65x49.
plasma 65x49 6 "$here/still.gif"

# GIF, animated: five frames that loop (NETSCAPE2.0), 81x61.
for frame in 1 2 3 4 5; do
    plasma 81x61 "1$frame" "frame$frame.png"
done
convert -delay 20 -loop 0 frame1.png frame2.png frame3.png frame4.png frame5.png \
    -layers Optimize "$here/animated.gif"

# WebP, lossy (simple VP8), 151x101.
plasma 151x101 7 lossy.png
cwebp -quiet -q 70 lossy.png -o "$here/lossy.webp"

# WebP, lossless (simple VP8L), 91x61.
plasma 91x61 8 lossless.png
cwebp -quiet -lossless lossless.png -o "$here/lossless.webp"

# WebP, extended (VP8X with ALPH and VP8): lossy with an alpha channel, 129x97.
plasma 129x97 9 extended-source.png
convert extended-source.png -alpha set -channel A -evaluate set 60% +channel \
    -strip png32:extended.png
cwebp -quiet -q 70 -alpha_q 100 extended.png -o "$here/extended.webp"

# WebP, animated (VP8X with ANIM and ANMF frames), 81x61, from the same five frames.
img2webp -q 60 -loop 0 -d 200 -lossy frame1.png frame2.png frame3.png frame4.png frame5.png \
    -o "$here/animated.webp" > /dev/null 2>&1

ls -l "$here"
