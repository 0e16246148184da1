import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages, createTaskSchema, validationMessages } from '@task-manager/shared';
import { deApiMessages, deValidationMessages } from '../locales/server-texts.de';
import { ApiError, errorMessage } from './api-client';
import { setLanguage, translateServerText } from './i18n';
import { firstIssue } from './validation';

const notFound = (message: string) => new ApiError(404, { message }, '/api/tasks/x');

describe('messages of the shared schemas and of the API', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('has a German text for every one, none left in English', () => {
    for (const [key, english] of Object.entries(validationMessages)) {
      const german = deValidationMessages[key as keyof typeof validationMessages];
      expect(german?.trim(), key).toBeTruthy();
      expect(german, key).not.toBe(english);
    }
    for (const [key, english] of Object.entries(apiMessages)) {
      const german = deApiMessages[key as keyof typeof apiMessages];
      expect(german?.trim(), key).toBeTruthy();
      expect(german, key).not.toBe(english);
    }
    expect(Object.keys(deValidationMessages).sort()).toEqual(
      Object.keys(validationMessages).sort(),
    );
    expect(Object.keys(deApiMessages).sort()).toEqual(Object.keys(apiMessages).sort());
  });

  it('stay the spec’s English words in English', () => {
    expect(firstIssue(createTaskSchema, { title: '' })).toBe(validationMessages.titleRequired);
    expect(errorMessage(notFound(apiMessages.taskNotFound), 'Failed')).toBe('Task not found');
  });

  describe('in German', () => {
    beforeEach(async () => {
      await setLanguage('de');
    });

    it('translates a form’s first failing rule', () => {
      expect(firstIssue(createTaskSchema, { title: '' })).toBe('Ein Titel ist erforderlich.');
    });

    it('translates the API’s message and keeps one it does not know', () => {
      expect(errorMessage(notFound(apiMessages.taskNotFound), 'Fehler')).toBe(
        'Aufgabe nicht gefunden',
      );
      expect(translateServerText('Something only a newer server says')).toBe(
        'Something only a newer server says',
      );
      expect(errorMessage(new ApiError(500, {}, '/api/x'), 'Fehler')).toBe('Fehler');
    });
  });
});
