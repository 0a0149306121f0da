/** The shared UI pieces: one confirm dialog, one alert/toast, tabs, card, button, spinner. */
export { Button, buttonClass, type ButtonProps, type ButtonVariant, type ButtonSize } from './button';
export { Card, type CardProps } from './card';
export { Spinner, type SpinnerProps } from './spinner';
export { Tabs, type TabItem, type TabsProps } from './tabs';
export { ConfirmHost, confirmDialog, promptDialog, useConfirm, usePrompt, type ConfirmOptions, type PromptOptions } from './confirm-dialog';
export { Toaster, showAlert, dismissAlert, useAlert, type AlertKind, type AlertItem } from './alert';
