import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { User } from '../contract/account.ts';
import { Menu, MenuItem, MenuTrigger } from '../widgets/Menu.tsx';
import { PlainButton } from '../widgets/Pressable.tsx';
import { isStaffRole } from '../contract/account.rules.ts';

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
      <PlainButton className="lc-avatar lc-avatar--button">{children}</PlainButton>
      <Menu aria-label="Account" placement="bottom end" popoverClassName="lc-user-menu"
        header={(
          <div className="lc-user-menu__who">
            <strong>{user.full_name}</strong>
            <span>{user.email}</span>
          </div>
        )}
        onAction={(key) => navigate(key === 'console' ? '/console' : '/account')}>
        <MenuItem id="account" className="lc-user-menu__item">
          Manage your account
        </MenuItem>
        {isStaffRole(user.role) && (
          <MenuItem id="console" className="lc-user-menu__item">
            Concierge console
          </MenuItem>
        )}
      </Menu>
    </MenuTrigger>
  );
}
