import type { ButtonHTMLAttributes } from 'react';
import './Button.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  size?: 'sm' | 'md';
}

export function Button({ size = 'md', className = '', ...rest }: ButtonProps) {
  return <button className={`pb-button pb-button--${size} ${className}`} {...rest} />;
}
