import '@glint/environment-ember-loose';
