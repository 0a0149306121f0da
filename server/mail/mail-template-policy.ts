/**
 * Mail templates: the placeholder check again on the stored template merged with what a save
 * sends (an update that changes only the target must not leave order placeholders in a
 * customer template). The form's own check (lib/mail-template templateProblems) is the same rule.
 */
import { templateProblems } from '../../lib/mail-template';
import { columnOf } from '../../lib/resources/types';
import { badRequest } from '../http/api-error';
import type { ResourcePolicy } from '../resources';

export const mailTemplatePolicy: ResourcePolicy = {
  async beforeSave({ def, current, columns }) {
    const merged = { ...current, ...columns };
    const values = Object.fromEntries(['target', 'subject', 'body'].map((name) => [name, merged[columnOf(def, name)]]));
    const problems = templateProblems(values);
    if (problems) throw badRequest(Object.values(problems)[0], { fields: problems });
  },
};
