"""Draw the installable page's icons (static/icon-192.png, static/icon-512.png): the site's accent colour and its
name, with Pillow (which matplotlib brings). `python -m scripts.icons` redraws them."""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parent.parent / "static"
ACCENT = (11, 110, 79)  # static/style.css --accent
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw(size: int) -> Image.Image:
    image = Image.new("RGB", (size, size), ACCENT)
    pen = ImageDraw.Draw(image)
    try:
        font = ImageFont.truetype(FONT, size // 4)
    except OSError:
        font = ImageFont.load_default()
    left, top, right, bottom = pen.textbbox((0, 0), "SASS", font=font)
    pen.text(((size - (right - left)) / 2 - left, (size - (bottom - top)) / 2 - top), "SASS", fill="white", font=font)
    return image


if __name__ == "__main__":
    for size in (192, 512):
        draw(size).save(STATIC / f"icon-{size}.png", optimize=True)
