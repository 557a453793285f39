import type { ReactNode } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover, Separator } from 'react-aria-components';
import { useNavigate } from 'react-router';
import type { User } from '../contract/account.ts';
import { isStaffRole } from './ConsoleGuard.tsx';

interface UserMenuProps {
  user: User;
  defaultOpen?: boolean;
  /** What the trigger shows (the avatar and its label). */
  children: ReactNode;
}

/** SPEC §2 Layout: the user menu of the mobile header (who is signed in, their account, the console for staff). */
export default function UserMenu({ user, defaultOpen = false, children }: UserMenuProps) {
  const navigate = useNavigate();
  return (
    <MenuTrigger defaultOpen={defaultOpen}>
      <Button className="lc-avatar lc-avatar--button">{children}</Button>
      <Popover placement="bottom end" className="lc-user-menu">
        <div className="lc-user-menu__who">
          <strong>{user.full_name}</strong>
          <span>{user.email}</span>
        </div>
        <Separator />
        <Menu aria-label="Account" onAction={(key) => navigate(key === 'console' ? '/console' : '/account')}>
          <MenuItem id="account" className="lc-user-menu__item">
            Manage your account
          </MenuItem>
          {isStaffRole(user.role) && (
            <MenuItem id="console" className="lc-user-menu__item">
              Concierge console
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
