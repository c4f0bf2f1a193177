import { Slot } from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

const buttonVariants = cva(
  'inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-lg text-sm font-medium transition-colors disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
  {
    variants: {
      variant: {
        // An organisation's accent colour when a branded screen sets it (components/branding), Pulsecheck's otherwise.
        primary:
          'bg-[var(--accent,var(--color-brand-600))] text-white hover:bg-[var(--accent-hover,var(--color-brand-700))]',
        secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
        ghost: 'text-slate-700 hover:bg-slate-100',
        danger: 'bg-red-600 text-white hover:bg-red-700',
        link: 'text-brand-700 underline-offset-4 hover:underline',
      },
      size: { sm: 'h-8 px-3', md: 'h-10 px-4', lg: 'h-12 px-6 text-base', icon: 'size-10' },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

type ButtonProps = ComponentProps<'button'> & VariantProps<typeof buttonVariants> & { asChild?: boolean };

export function Button({ className, variant, size, asChild, type, ...props }: ButtonProps) {
  const Component = asChild ? Slot : 'button';
  return (
    <Component
      className={cn(buttonVariants({ variant, size }), className)}
      {...(asChild ? {} : { type: type ?? 'button' })}
      {...props}
    />
  );
}

/** A form's submit button: disabled, and saying `busy` ('Saving...'), while the form submits. */
export function SubmitButton({
  pending,
  busy,
  children,
  disabled = false,
  ...props
}: Omit<ButtonProps, 'type'> & { pending: boolean; busy: string }) {
  return (
    <Button type="submit" disabled={pending || disabled} {...props}>
      {pending ? busy : children}
    </Button>
  );
}
