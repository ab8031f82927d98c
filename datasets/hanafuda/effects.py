"""What light and the camera do to a composed table: uneven light, glare, white balance, exposure, blur, noise,
sharpening and JPEG. A ``Look`` is drawn once per shot so every effect can be logged and switched off.

Images are float32 BGR in [0, 1] until the very end. Pixel-sized amounts (blur, glare size) are given for a
720-line image and scaled with the frame, so a 1080p shot gets the same look as a 720p one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.hanafuda.config import SceneConfig
from datasets.hanafuda.noise import fractal_noise, pixel_noise

WASHED_KEPT = 0.2  # a pixel whose art keeps this share of its contrast or less under glare is washed out
WASHED_OUT = 0.5  # a card or tile glare washes out over this share of what shows of it: no one can read it


@dataclass(frozen=True)
class Glare:
    """One specular highlight: an elongated soft blob where a lamp or window reflects."""

    where: tuple[float, float]  # in [0, 1]²: a spot in the frame, or in a card's quad when ``on_card``
    on_card: float  # in [0, 1): which card it lands on, or -1 for anywhere in the frame
    axes: tuple[float, float]  # half lengths in px
    angle: float  # degrees
    strength: float
    colour: tuple[float, float, float]


@dataclass(frozen=True)
class Look:
    """Everything photometric about one shot (see ``sample_look``)."""

    light_dir: tuple[float, float]  # unit vector in the image: where shadows fall
    shadow_strength: float  # 0 no shadows .. 1 black
    shadow_softness: float  # blur of a 10 mm high object's shadow, px
    gradient: tuple[float, float, float]  # (angle, strength, offset) of the light falloff across the frame
    mottle: float  # slow uneven light over the table
    vignette: float
    glares: tuple[Glare, ...]
    white_balance: tuple[float, float, float]  # BGR gains
    exposure: float  # scene light level after the camera's gain
    gain: float  # the camera's analogue gain: scales noise
    read_noise: float
    shot_noise: float
    chroma_noise: float
    defocus: float  # gaussian sigma, px
    tilt_blur: float  # extra blur towards one side (depth of field on a tilted table), px
    motion: tuple[float, float]  # (length px, angle deg)
    sharpen: float
    contrast: float  # S-curve strength of the camera's tone mapping (negative flattens)
    saturation: float  # the camera's colour processing: < 1 washed out, > 1 punchy
    black_level: float  # lifted blacks from lens flare and cheap sensors
    denoise: float  # the phone's noise reduction: a smoothing blur after the noise, px
    jpeg_quality: int | None


def apply_lighting(image: np.ndarray, look: Look, rng: np.random.Generator) -> None:
    """Uneven illumination, mottle and vignetting, in place."""
    h, w = image.shape[:2]
    angle, strength, offset = look.gradient
    if strength <= 0 and look.vignette <= 0 and look.mottle <= 0:
        return
    small = (max(h // 8, 2), max(w // 8, 2))
    ys, xs = np.mgrid[0 : small[0], 0 : small[1]].astype(np.float32)
    xs, ys = xs / small[1] - 0.5, ys / small[0] - 0.5
    gain = 1.0 + strength * (np.cos(angle) * xs + np.sin(angle) * ys + offset)
    if look.vignette > 0:
        gain *= 1.0 - look.vignette * (xs**2 + ys**2) * 2.0
    if look.mottle > 0:
        gain *= 1.0 + look.mottle * fractal_noise(rng, small, cell=max(small) / 3, octaves=2)
    full = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    image *= full[..., None]


def glare_blob(xs: np.ndarray, ys: np.ndarray, centre: tuple[float, float], axes: tuple[float, float],
               angle: float) -> np.ndarray:
    """A reflection's shape over the pixel grids ``xs``, ``ys``: a soft halo plus a burnt core (0 to 1.1), an
    ellipse of ``axes`` turned by ``angle`` (radians) about ``centre``."""
    c, s = np.cos(angle), np.sin(angle)
    du, dv = (xs - centre[0]) * c + (ys - centre[1]) * s, -(xs - centre[0]) * s + (ys - centre[1]) * c
    r2 = (du / axes[0]) ** 2 + (dv / axes[1]) ** 2
    return np.exp(-r2 * 1.5) * 0.6 + np.clip(1.6 - r2, 0, 1) * 0.5


def apply_glare(image: np.ndarray, gloss: np.ndarray, look: Look, quads: list[np.ndarray]) -> np.ndarray:
    """Blend towards the light colour where something glossy reflects a light, in place. Glare that is meant
    for a card lands on one of ``quads`` (the cards are where a reflection hurts recognition). Returns what share
    of its contrast each pixel keeps (1 where no glare lies, 0 where the light's colour alone is left): where a
    card's art keeps almost none, no one can read it (``washed_out``)."""
    h, w = image.shape[:2]
    kept = np.ones((h, w), np.float32)
    for g in look.glares:
        u, v = g.where
        if g.on_card >= 0 and quads:
            q = quads[int(g.on_card * len(quads))]
            top, bottom = q[0] + (q[1] - q[0]) * u, q[3] + (q[2] - q[3]) * u
            cx, cy = top + (bottom - top) * v
        else:
            cx, cy = u * w, v * h
        reach = int(max(g.axes) * 2.2)
        x0, x1 = max(int(cx) - reach, 0), min(int(cx) + reach, w)
        y0, y1 = max(int(cy) - reach, 0), min(int(cy) + reach, h)
        if x1 <= x0 or y1 <= y0:
            continue
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        blob = glare_blob(xs, ys, (cx, cy), g.axes, np.radians(g.angle))
        weight = np.clip(blob * g.strength * gloss[y0:y1, x0:x1], 0, 1)[..., None]
        roi = image[y0:y1, x0:x1]
        roi += (np.asarray(g.colour, np.float32) - roi) * weight
        kept[y0:y1, x0:x1] *= 1.0 - weight[..., 0]
    return kept


def washed_out(kept: np.ndarray, index_map: np.ndarray, count: int) -> np.ndarray:
    """Per object 0..count-1 of ``index_map``: the share of its pixels in view where glare leaves its art
    ``WASHED_KEPT`` of its contrast or less (0 for an object not in view)."""
    inside = index_map >= 0
    labels = index_map[inside].ravel()
    seen = np.bincount(labels, minlength=count)[:count]
    washed = np.bincount(labels, weights=(kept[inside] <= WASHED_KEPT).ravel(), minlength=count)[:count]
    return (washed / np.maximum(seen, 1)).astype(np.float32)


def apply_camera(image: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """White balance, exposure, optics blur, sensor noise, tone curve and sharpening; returns uint8 BGR."""
    image *= np.asarray(look.white_balance, np.float32) * np.float32(look.exposure)
    image = _blur(image, look)
    if look.read_noise > 0 or look.shot_noise > 0:
        sigma = np.sqrt(look.read_noise**2 + look.shot_noise * np.clip(image, 0, None)) * look.gain
        image += sigma * pixel_noise(rng, image.shape, 1.0)
        if look.chroma_noise > 0:
            h, w = image.shape[:2]
            chroma = pixel_noise(rng, (max(h // 3, 1), max(w // 3, 1), 3), look.chroma_noise * look.gain)
            image += cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
    if look.denoise > 0:
        image = cv2.bilateralFilter(image, -1, 0.06, look.denoise * 2)
    np.clip(image, 0, 1, out=image)
    if look.saturation != 1.0:
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[..., None]
        image = grey + (image - grey) * np.float32(look.saturation)
    if look.black_level > 0:
        image = np.float32(look.black_level) + image * np.float32(1 - look.black_level)
    if look.contrast != 0:
        image += look.contrast * (image - image * image) * (2 * image - 1)
    if look.sharpen > 0:
        soft = cv2.GaussianBlur(image, (0, 0), 1.0)
        image += look.sharpen * (image - soft)
    out = np.clip(image * 255.0 + 0.5, 0, 255).astype(np.uint8)
    if look.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
        if ok:
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def _blur(image: np.ndarray, look: Look) -> np.ndarray:
    if look.defocus > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), look.defocus)
    if look.tilt_blur > 0.3:
        h, w = image.shape[:2]
        far = cv2.GaussianBlur(image, (0, 0), look.tilt_blur)
        angle = look.gradient[0] + np.pi / 3
        ramp = np.clip(
            np.cos(angle) * np.linspace(-1, 1, w)[None, :] + np.sin(angle) * np.linspace(-1, 1, h)[:, None], 0, 1
        )
        image += (far - image) * ramp.astype(np.float32)[..., None]
    length, angle = look.motion
    if length >= 1.5:
        size = int(np.ceil(length)) | 1
        kernel = np.zeros((size, size), np.float32)
        c = size // 2
        dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
        cv2.line(
            kernel,
            (round(c - dx), round(c - dy)),
            (round(c + dx), round(c + dy)),
            1.0,
            1,
            cv2.LINE_AA,
        )
        image = cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))
    return image


def sample_look(rng: np.random.Generator, cfg: SceneConfig) -> Look:
    """Draw the light and camera state of one shot from the config's knobs."""
    s = cfg.size[1] / 720.0
    light = rng.uniform(0, 2 * np.pi)
    glares = []
    if rng.random() < cfg.glare:
        for _ in range(int(rng.integers(1, 4))):
            long = rng.uniform(15, 220) * s
            colour = np.clip(1.0 + rng.normal(0, 0.04, 3), 0.9, 1.0)
            glares.append(
                Glare(
                    where=(float(rng.uniform(0, 1)), float(rng.uniform(0, 1))),
                    on_card=float(rng.uniform(0, 1)) if rng.random() < 0.6 else -1.0,
                    axes=(long, long * rng.uniform(0.15, 1.0)),
                    angle=float(rng.uniform(0, 180)),
                    strength=float(rng.uniform(0.5, 1.4)),
                    colour=(float(colour[0]), float(colour[1]), float(colour[2])),
                )
            )
    temperature = rng.normal(0, cfg.white_balance)
    tint = rng.normal(0, cfg.white_balance * 0.3)
    dim = rng.random() < cfg.dim
    blur_on = rng.random() < cfg.defocus
    return Look(
        light_dir=(float(np.cos(light)), float(np.sin(light))),
        shadow_strength=cfg.shadows * float(rng.uniform(0.2, 0.6)),
        shadow_softness=float(rng.uniform(0.5, 4.0)),
        gradient=(
            float(rng.uniform(0, 2 * np.pi)),
            cfg.light_gradient * float(rng.uniform(0, 1)),
            float(rng.uniform(-0.2, 0.2)),
        ),
        mottle=cfg.light_gradient * float(rng.uniform(0, 0.3)),
        vignette=cfg.vignette * float(rng.uniform(0, 1)),
        glares=tuple(glares),
        white_balance=(float(np.exp(-temperature)), float(np.exp(tint)), float(np.exp(temperature))),
        exposure=float(rng.uniform(0.35, 0.7) if dim else rng.uniform(*cfg.exposure)),
        gain=float(rng.uniform(1.8, 4.0) if dim else rng.uniform(0.6, 1.5)),
        read_noise=cfg.noise * float(rng.uniform(0.002, 0.008)),
        shot_noise=cfg.noise * float(rng.uniform(0.0002, 0.002)),
        chroma_noise=cfg.noise * float(rng.uniform(0.0, 0.006)),
        defocus=float(rng.uniform(0.3, 1.6) * s) if blur_on else 0.0,
        tilt_blur=float(rng.uniform(0.5, 2.5) * s) if blur_on and rng.random() < 0.4 else 0.0,
        motion=(float(rng.uniform(1.5, 7) * s) if rng.random() < cfg.motion_blur else 0.0, float(rng.uniform(0, 180))),
        sharpen=float(rng.uniform(0.3, 1.2)) if rng.random() < cfg.sharpen else 0.0,
        denoise=float(rng.uniform(0.5, 1.2) * s) if cfg.noise and rng.random() < (0.7 if dim else 0.2) else 0.0,
        contrast=cfg.tone_curve * float(rng.uniform(-0.6, 1.0)),
        saturation=1.0 + cfg.camera_colour * float(rng.uniform(-0.4, 0.2)),
        black_level=cfg.camera_colour * float(rng.uniform(0.0, 0.1) if rng.random() < 0.5 else 0.0),
        jpeg_quality=int(rng.integers(cfg.jpeg_quality[0], cfg.jpeg_quality[1] + 1))
        if rng.random() < cfg.jpeg
        else None,
    )
