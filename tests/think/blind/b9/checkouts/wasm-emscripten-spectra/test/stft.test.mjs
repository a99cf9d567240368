import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stft, melSpectrogram } from '../src/index.js';

const sine = (f, sr, n) => Float32Array.from({ length: n }, (_, i) => Math.sin((2 * Math.PI * f * i) / sr));

test('stft: 440Hz sine peaks in bin 14', async () => {
  const frames = await stft(sine(440, 16000, 4096), { win: 512, hop: 160 });
  const mid = frames[Math.floor(frames.length / 2)];
  assert.equal(mid.indexOf(Math.max(...mid)), 14);
});

test('mel: 40 bands at 16kHz', async () => {
  const mel = await melSpectrogram(sine(1000, 16000, 4096), { sampleRate: 16000, nMels: 40 });
  assert.equal(mel.length % 40, 0);
});
