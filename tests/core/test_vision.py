"""The shared picture machinery: loading by content, the recogniser, the repair search."""

from __future__ import annotations

import math
import time

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tools.fonts import held_out_fonts

from pencilbox.core.vision import image_kind, is_picture_file
from pencilbox.core.vision import picture as pictures
from pencilbox.core.vision.glyphs import (
    CLASSES,
    Blob,
    Guess,
    blobs,
    glyph_image,
    ink_map,
    recogniser,
)
from pencilbox.core.vision.grid import lattice_peaks, period, refine_quad
from pencilbox.core.vision.looks import Looks, kin_of, kin_suspects, look_value
from pencilbox.core.vision.reading import Reading, ReadNumber
from pencilbox.core.vision.repair import Suspect, search
from pencilbox.errors import FormatError


def _encoded(kind: str) -> bytes:
    image = np.full((60, 80, 3), 255, np.uint8)
    cv2.rectangle(image, (10, 10), (50, 40), (0, 0, 0), 2)
    ext = {"png": ".png", "jpeg": ".jpg", "webp": ".webp"}[kind]
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


@pytest.mark.parametrize("kind", ["png", "jpeg", "webp"])
def test_pictures_are_told_by_content_not_name(tmp_path, kind):
    data = _encoded(kind)
    assert image_kind(data) == kind
    path = tmp_path / "puzzle.txt"  # a misleading name
    path.write_bytes(data)
    assert is_picture_file(path)
    loaded = pictures.load(path)
    assert (loaded.width, loaded.height) == (80, 60)


def test_transparent_png_is_laid_on_white():
    rgba = np.zeros((50, 50, 4), np.uint8)  # fully transparent black
    ok, data = cv2.imencode(".png", rgba)
    assert ok
    assert int(pictures.decode(data.tobytes()).pixels.min()) == 255


def test_errors_say_what_is_wrong(tmp_path):
    text = tmp_path / "fake.png"
    text.write_text("3 3,1 1\n1 1,3 3\n")
    assert not is_picture_file(text)
    with pytest.raises(FormatError, match="not a PNG, JPEG or WebP picture"):
        pictures.load(text)
    with pytest.raises(FormatError, match="cannot be decoded"):
        pictures.decode(_encoded("png")[:60])
    tiny = cv2.imencode(".png", np.zeros((10, 12, 3), np.uint8))[1].tobytes()
    with pytest.raises(FormatError, match=r"too small to read \(12x10 pixels\)"):
        pictures.decode(tiny)
    with pytest.raises(FormatError, match="cannot read the file"):
        pictures.load(tmp_path / "missing.png")


def test_large_pictures_are_worked_on_smaller_and_mapped_back():
    image = np.full((3000, 2000, 3), 255, np.uint8)
    loaded = pictures.from_pixels(image)
    assert max(loaded.work.shape[:2]) == pictures.WORK_SIDE
    x, y = loaded.to_original(800, 400)
    assert (round(x), round(y)) == (round(800 / loaded.scale), round(400 / loaded.scale))


def _rendered(char: str, font_path: str, size: int) -> np.ndarray:
    font = ImageFont.truetype(font_path, size)
    image = Image.new("L", (size * 2, size * 2), 255)
    ImageDraw.Draw(image).text((size, size), char, fill=20, font=font, anchor="mm")
    return np.asarray(image)


def test_the_recogniser_reads_digits_in_fonts_it_never_saw():
    faces = [p for p in held_out_fonts() if "Regular" in p.name or p.name == "Gentium-R.ttf"]
    assert faces, "make fonts installs the held-out faces"
    crops, truth = [], []
    for face in faces[:4]:
        for char in "0123456789ABCDEFG":
            for size in (14, 40):
                gray = _rendered(char, str(face), size)
                ink = ink_map(gray, window=size)
                mask = ((ink > 0.3) * 255).astype(np.uint8)
                found, _ = blobs(mask)
                box = found[0]
                for other in found[1:]:
                    box = box.union(other)
                crops.append(glyph_image(ink, Blob(box.x0, box.y0, box.x1, box.y1, box.area)))
                truth.append(char)
    probabilities = recogniser().probabilities(np.stack(crops))
    read = [CLASSES[i] for i in probabilities.argmax(axis=1)]
    right = sum(a == b for a, b in zip(read, truth))
    assert right >= 0.97 * len(truth), list(zip(truth, read))


def test_the_repair_takes_the_cheapest_change_that_passes():
    # number 0 read 8 (0.6) or 3 (0.35); number 1 read 5 (0.9) or 6 (0.1): only 3 passes
    suspects = [Suspect(0, 0.6, ((3, 0.35), (9, 0.05))), Suspect(1, 0.9, ((6, 0.1),))]
    found = search(suspects, lambda changes: changes.get(0) == 3)
    assert found.changes == {0: 3}
    assert not found.ambiguous
    assert math.isclose(found.cost, math.log(0.6) - math.log(0.35))


def test_the_repair_says_when_two_changes_would_do():
    suspects = [Suspect(0, 0.5, ((3, 0.45),)), Suspect(1, 0.5, ((4, 0.45),))]
    found = search(suspects, lambda changes: len(changes) == 1)
    assert found.changes is not None
    assert found.ambiguous


def test_the_repair_gives_up_when_nothing_passes():
    found = search([Suspect(0, 0.9, ((1, 0.1),))], lambda changes: False)
    assert found.changes is None


def test_the_repairs_budget_is_the_readers_own_work_not_the_wall_clock():
    # a check that waits (a machine busy with other work: this thread gets no CPU) uses no
    # budget, so every change is tried as on an idle machine; one that computes does use it
    suspects = [Suspect(0, 0.5, ((v, 0.05),)) for v in range(1, 7)]
    waits = search(suspects, lambda c: time.sleep(0.02) or False, max_changes=1, time_limit=0.01)
    assert not waits.timed_out and waits.tried == 6

    def computes(changes: object) -> bool:
        started = time.thread_time()
        while time.thread_time() - started < 0.02:
            pass
        return False

    busy = search(suspects, computes, max_changes=1, time_limit=0.01)
    assert busy.timed_out and busy.tried < 6


def test_period_finds_the_thin_lines_not_the_bold_ones():
    profile = np.zeros(400, np.float32)
    for k in range(0, 400, 14):
        profile[k] = 40.0 if (k // 14) % 5 == 0 else 12.0
    assert period(profile) == pytest.approx(14.0, abs=0.5)


def test_an_edited_reading_is_the_users_word():
    number = ReadNumber("row", 6, 1, 8, 0.55, ((3, 0.4), (6, 0.05)), (10, 20, 18, 32))
    reading = Reading("nonogram", 10, 10, (number,))
    assert reading.doubtful() == [0]
    assert reading.uncertain_json() == [
        {"clue": "row 7", "index": 2, "read": 8, "alternatives": [3, 6], "confidence": 0.55}
    ]
    fixed = reading.edited({0: 3})
    assert fixed.numbers[0].value == 3 and fixed.numbers[0].edited
    assert fixed.doubtful() == []
    with pytest.raises(IndexError):
        reading.edited({5: 1})


def test_lattice_lines_after_a_long_faint_rise_are_all_found():
    # a faint wide bump (a shadow, paper grain) ends just before the first ruled line: its
    # centre lies beyond its own maximum and must not hide the lines that follow
    profile = np.full(200, 3.0, np.float32)
    profile[20:70] = np.linspace(3.0, 6.0, 50)
    lines = [72.0, 97.0, 122.0, 147.0, 172.0]
    for at in lines:
        profile[int(at) - 1 : int(at) + 2] = 160.0
    found = [round(p.position) for p in lattice_peaks(profile, 25.0)]
    assert found == [round(at) for at in lines]


def test_a_blurred_quad_gets_its_exact_corners_back():
    mask = np.zeros((300, 300), np.uint8)
    corners = np.array([[40, 50], [250, 35], [265, 260], [30, 240]], np.float32)
    cv2.polylines(mask, [corners.astype(np.int32)], True, 255, 3)
    mask = ((cv2.GaussianBlur(mask, (0, 0), 3) > 60) * 255).astype(np.uint8)
    rough = corners + np.array([[3, 3], [-3, 3], [-3, -3], [3, -3]], np.float32)
    refined = refine_quad(mask, rough, band=6.0)
    assert np.abs(refined - corners).max() < 1.0 < np.abs(rough - corners).max()


def _guess(*ranked: tuple[str, float]) -> Guess:
    return Guess(tuple(ranked))


def test_crops_that_differ_by_a_trace_are_kin_and_others_are_not():
    face = str(held_out_fonts()[0])

    def crop(char: str) -> np.ndarray:
        ink = ink_map(_rendered(char, face, 30), window=30)
        return glyph_image(ink, Blob(0, 0, 60, 60, 0))

    eight, nine = crop("8"), crop("9")
    lighter = eight * 0.98  # the same character drawn a shade lighter
    assert kin_of([eight, nine, lighter, None, nine]) == (0, 1, 0, 3, 1)


def test_kin_are_changed_together_and_settled_on_their_best_digit_on_average():
    looks = Looks(
        of_number=((0,), (1, 0), (2,), (3,)),
        guesses=(
            _guess(("7", 0.50), ("1", 0.45), ("3", 0.05)),
            _guess(("1", 0.48), ("7", 0.47), ("3", 0.05)),
            _guess(("2", 0.999), ("7", 0.001)),
            _guess(("none", 0.6), ("5", 0.4)),
        ),
        kin=(0, 0, 2, 3),
    )
    suspects, settled = kin_suspects(looks, {0, 1, 2, 3})
    assert settled == {0: 7}  # read as 7 and as 1: 7 on average
    assert [s.at for s in suspects] == [0, 3]  # a sure 2 is no suspect
    assert suspects[0].alternatives[0] == (1, pytest.approx(0.465))
    assert look_value(looks, 1, {0: 1}) == 11 and look_value(looks, 1, {}) == 17
    assert look_value(looks, 3, {}) is None and look_value(looks, 3, {3: 5}) == 5
