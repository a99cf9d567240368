import { TestBed } from '@angular/core/testing';
import { Camera } from '@capacitor/camera';
import { Filesystem } from '@capacitor/filesystem';

import { PhotoService } from './photo.service';

describe('PhotoService', () => {
  let service: PhotoService;

  beforeEach(() => {
    TestBed.configureTestingModule({});
    service = TestBed.inject(PhotoService);
  });

  it('should be created', () => {
    expect(service).toBeTruthy();
  });

  it('adds a captured photo to the front of the gallery', async () => {
    spyOn(Camera, 'getPhoto').and.resolveTo({ webPath: 'blob:abc', format: 'jpeg', saved: false });
    spyOn(Filesystem, 'writeFile').and.resolveTo({ uri: 'file:///data/123.jpeg' });
    spyOn(service as any, 'readAsBase64').and.resolveTo('ZmFrZQ==');

    await service.addNewToGallery();

    expect(service.photos.length).toBe(1);
    expect(service.photos[0].filepath).toMatch(/\.jpeg$/);
  });
});
